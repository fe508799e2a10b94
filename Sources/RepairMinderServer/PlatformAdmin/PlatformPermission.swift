import RepairMinderModels

extension Permission {
    /// Granted only to members of the platform's own company, whatever their role elsewhere: a
    /// `master_admin` set in a shop (by SQL, or a fixtures file) administers no shop, and every
    /// platform administrator signs in under the platform's policy (a passkey).
    var isPlatformOnly: Bool { self == .companiesManage }
}

extension UserRole {
    /// What the role grants a member of `companyId`: its `permissions`, less the platform's
    /// own outside the platform's own company. The token's `permissions` and every route's
    /// check read this.
    func permissions(inCompany companyId: String) -> [Permission] {
        PlatformOwnCompany.contains(companyId) ? permissions : permissions.filter { !$0.isPlatformOnly }
    }

    /// Whether the role lets a member of `companyId` do `permission`.
    func may(_ permission: Permission, inCompany companyId: String) -> Bool {
        may(permission) && (!permission.isPlatformOnly || PlatformOwnCompany.contains(companyId))
    }
}
