import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// The server's side of issue 28's tolerant decoding: request bodies stay strict (see
/// `BadInputTests` for an unknown `platform`), and an unknown value that could only come from
/// a damaged row fails closed.
@Suite struct UnknownWireValueTests {
    @Test func anUnknownRoleGrantsNoPermission() {
        #expect(UserRole.unknown("overlord").permissions.isEmpty)
        for role in UserRole.allCases { #expect(!role.permissions.isEmpty, "\(role)") }
    }

    @Test func anUnknownStoredCompanyStatusIsSuspended() {
        func record(_ status: String) -> CompanyRecord {
            CompanyRecord(
                id: "c1", name: "Acme", status: status, currencyCode: nil, vatNumber: nil, logoUrl: nil, vatRateRepair: nil,
                vatRateDeviceSale: nil, vatRateAccessory: nil, vatRateDevicePurchase: nil)
        }
        #expect(record("closed_for_audit").companyStatus == .suspended)
        #expect(record("pending_approval").companyStatus == .pendingApproval)
        #expect(record("active").companyStatus == .active)
    }
}
