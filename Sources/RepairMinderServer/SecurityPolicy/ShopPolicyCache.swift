/// Shops' policies read in the last `lifetime`, by company id, for the bearer check and refresh
/// (docs/API.md §13.3: a tightening reaches this server's routes on every instance within
/// seconds, and a session at its next refresh), which would otherwise read them on every request.
typealias ShopPolicyCache = ExpiringCache<ShopPolicy>
