/// Passwordless customer sign-in: `/api/customer/auth/*` (docs/API.md §3).
extension Routes {
    public struct CustomerAuth: RouteFeature {
        public static let name = "Customer sign-in"
        public let requestMagicLink = Route<CustomerMagicLinkRequest, MessageResponse>(
            .post, "/api/customer/auth/request-magic-link", .none, "Email a customer sign-in code",
            budgets: [.clientIP, .codeEmails(by: .bodyEmail, namespace: "customer")])
        public let verifyCode = Route<CustomerVerifyCodeRequest, CustomerVerifyCodeResponse>(
            .post, "/api/customer/auth/verify-code", .none,
            "Sign in with the code, or list the companies to choose from",
            budgets: [.clientIP, .wrongCodes(by: .bodyEmail, namespace: "customer")], failures: [.invalidCode])
        public let me = Route<EmptyPayload, CustomerMeResponse>(
            .get, "/api/customer/auth/me", .customer, "The signed-in customer and their company")
        public let logout = Route<EmptyPayload, EmptyPayload>(
            .post, "/api/customer/auth/logout", .customer, "Revoke the customer session")
        public let deleteAccount = Route<EmptyPayload, MessageResponse>(
            .delete, "/api/customer/auth/me", .customer,
            "Delete the customer's account: their record in every shop becomes anonymous and every session ends",
            failures: [.reauthenticationRequired])
    }
    /// Customer sign-in: the routes of this feature.
    public static let customerAuth = CustomerAuth()
}
