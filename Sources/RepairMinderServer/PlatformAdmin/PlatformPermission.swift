import RepairMinderModels

extension Permission {
    /// Granted only to members of the platform's own company, whatever their role elsewhere: a
    /// `master_admin` set in a shop (by SQL, or a fixtures file) administers no shop, and every
    /// platform administrator signs in under the platform's policy (a passkey).
    var isPlatformOnly: Bool { self == .companiesManage }

    /// Governs a company: its team and its policy. In the platform's own company these are its
    /// `master_admin`s' alone, since that company's policy is the floor every platform
    /// administrator signs in under (an `admin` there must not lower it).
    var governsACompany: Bool { [.usersManage, .companyManage, .companiesManage].contains(self) }
}

extension UserRole {
    /// What the role grants a member of `companyId`: its `permissions`, less the platform's
    /// own outside the platform's own company, and less governing the platform's own company
    /// for anyone there but a `master_admin`. The token's `permissions` and every route's check
    /// read this.
    func permissions(inCompany companyId: String) -> [Permission] {
        guard PlatformOwnCompany.contains(companyId) else { return permissions.filter { !$0.isPlatformOnly } }
        return self == .masterAdmin ? permissions : permissions.filter { !$0.governsACompany }
    }

    /// Whether the role lets a member of `companyId` do `permission`.
    func may(_ permission: Permission, inCompany companyId: String) -> Bool {
        permissions(inCompany: companyId).contains(permission)
    }
}
