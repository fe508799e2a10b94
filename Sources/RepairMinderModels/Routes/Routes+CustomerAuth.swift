/// Passwordless customer sign-in: `/api/customer/auth/*` (docs/API.md §3).
extension Routes {
    public enum CustomerAuth {
        public static let requestMagicLink = Route<CustomerMagicLinkRequest, MessageResponse>(
            .post, "/api/customer/auth/request-magic-link", .none, "Email a customer sign-in code",
            budgets: [.clientIP, .codeEmails(by: .bodyEmail, namespace: "customer")])
        public static let verifyCode = Route<CustomerVerifyCodeRequest, CustomerVerifyCodeResponse>(
            .post, "/api/customer/auth/verify-code", .none,
            "Sign in with the code, or list the companies to choose from",
            budgets: [.clientIP, .wrongCodes(by: .bodyEmail, namespace: "customer")], failures: [.init(401, .invalidCode)])
        public static let me = Route<EmptyPayload, CustomerMeResponse>(
            .get, "/api/customer/auth/me", .customer, "The signed-in customer and their company")
        public static let logout = Route<EmptyPayload, EmptyPayload>(
            .post, "/api/customer/auth/logout", .customer, "Revoke the customer session")

        static let all: [AnyRoute] = [requestMagicLink.erased, verifyCode.erased, me.erased, logout.erased]
    }
}
