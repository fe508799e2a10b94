import RepairMinderModels

/// Who is signed in, as the server last described them: a staff member with their shop
/// (`GET /api/auth/me`) or a customer with theirs (`GET /api/customer/auth/me`). Carried by
/// `APIClient.signedInUsers()` and `AuthEvent.userUpdated`.
public enum SignedInUser: Sendable, Equatable {
    case staff(StaffMeResponse)
    case customer(CustomerMeResponse)

    public var role: AppRole {
        switch self {
        case .staff: .staff
        case .customer: .customer
        }
    }

    public var email: String {
        switch self {
        case .staff(let me): me.user.email
        case .customer(let me): me.client.email
        }
    }
}
