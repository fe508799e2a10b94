import RepairMinderModels
import Testing

/// A feature's declarations are its list: every stored property is a route, read back in
/// the order declared, and every route of the table belongs to exactly one feature.
@Suite struct RouteFeatureTests {
    @Test func aFeatureListsEveryRouteItDeclaresInOrder() {
        let routes = Routes.accounts.routes.map(\.description)
        #expect(routes.first == Routes.accounts.currentUser.erased.description)
        #expect(routes.contains(Routes.accounts.company.erased.description))
        #expect(routes.last == Routes.accounts.companyLocation.erased.description)
        for feature in Routes.features {
            #expect(!feature.routes.isEmpty, "\(feature.name) declares no route")
        }
    }

    @Test func everyRouteBelongsToOneNamedFeature() {
        let descriptions = Routes.features.flatMap { $0.routes.map(\.description) }
        #expect(descriptions.count == Set(descriptions).count, "a route is declared twice")
        #expect(descriptions == Routes.all.map(\.description))
        #expect(Set(Routes.features.map(\.name)).count == Routes.features.count)
        #expect(Routes.feature(of: Routes.staffAuth.login.erased) == "Staff sign-in")
        #expect(Routes.feature(of: Routes.reki.login.erased) == "REKI")
    }

    /// The document's list of codes is read from the table: the general ones and every code a
    /// route declares, each once.
    @Test func everyDeclaredFailureCodeIsListed() {
        let listed = Set(ErrorCode.all)
        #expect(listed.count == ErrorCode.all.count)
        for route in Routes.all {
            for failure in route.failures {
                #expect(listed.contains(failure.code), "\(route): \(failure.code)")
            }
        }
        #expect(ErrorCode.general.allSatisfy(listed.contains))
        #expect(listed.contains(.passkeyLimit) && listed.contains(.companyNameTaken))
    }
}
