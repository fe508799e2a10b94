import Foundation
import RepairMinderModels

/// The last signed-in user and company, kept beside the session so an offline launch can show
/// who is signed in (`StaffAuth.State.offline`, `CustomerAuth.State.offline`). They are not
/// credentials: they are deleted with the session at sign-out.
extension CredentialStore {
    /// The staff member and company the last confirmed staff session belonged to.
    public func staffProfile() throws -> StaffMeResponse? { try decode(StaffMeResponse.self, .staffProfile) }
    /// The customer and shop the last confirmed customer session belonged to.
    public func customerProfile() throws -> CustomerMeResponse? { try decode(CustomerMeResponse.self, .customerProfile) }

    func saveStaffProfile(_ profile: StaffMeResponse) throws { try write(JSONEncoder().encode(profile), for: .staffProfile) }
    func saveCustomerProfile(_ profile: CustomerMeResponse) throws { try write(JSONEncoder().encode(profile), for: .customerProfile) }
}
