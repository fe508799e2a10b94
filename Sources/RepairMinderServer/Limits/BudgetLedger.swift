import Foundation
import RepairMinderModels

/// The budgets one call of a route spends: those its route declares, and no others. The route
/// mounter spends the ones keyed by the request before the handler runs, the handler spends
/// the ones only it can key (`RouteCall.spend`) when it gets there, and the mounter settles
/// every try counted from the answer (`AbuseLimits.settle`).
final class BudgetLedger: @unchecked Sendable {
    let declared: [RouteBudget]
    private let limits: AbuseLimits
    /// The caller's network (IPv4 /24, IPv6 /64), for budgets counted per network.
    private let clientNetwork: String
    private let lock = NSLock()
    private var spent: [AbuseLimits.Spent] = []

    init(declared: [RouteBudget], limits: AbuseLimits, clientNetwork: String) {
        self.declared = declared
        self.limits = limits
        self.clientNetwork = clientNetwork
    }

    /// Counts one try of the declared `budget` for `key` (throws 429 once it is used up).
    func spend(_ budget: RouteBudget, key: String) async throws {
        precondition(declared.contains(budget), "\(budget) is not declared by the route")
        let scoped = budget.namespace.isEmpty ? key : "\(budget.namespace):\(key)"
        let counted = try await limits.spend(budget.kind, key: scoped, network: budget.perNetwork ? clientNetwork : nil)
        lock.withLock { spent.append(contentsOf: counted) }
    }

    /// Settles every try counted, from the answer (`error` nil for a success).
    /// Each counter is settled on its own: one that fails (thrown at the end) leaves the others settled.
    func settle(after error: (any Error)?) async throws {
        var failure: (any Error)?
        for counted in lock.withLock({ spent }) {
            do { try await limits.settle(counted, after: error) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
