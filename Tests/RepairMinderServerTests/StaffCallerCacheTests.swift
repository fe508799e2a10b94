import Foundation
import TestSupport
import Testing

@testable import RepairMinderServer

/// `StaffCallerCache`: bounded in entries and seconds, forgotten at once on this instance.
@Suite struct StaffCallerCacheTests {
    private static func user(_ id: String) -> UserRecord {
        UserRecord(
            id: id, email: "\(id)@acme.test", firstName: nil, lastName: nil, companyId: "company", role: "admin",
            phiAccessLevel: nil, dataClassification: nil, isActive: 1, archived: 0, magicLinkEnabled: 1, passwordHash: nil,
            lastLogin: nil, createdAt: 0, updatedAt: 0)
    }

    private static func fill(_ cache: StaffCallerCache, session: String, user: String) {
        cache.remember(
            sessionId: session, user: Self.user(user), lastUsedAt: nil, readAt: cache.now(), generation: cache.currentGeneration)
    }

    /// Time moves when the test says so: no sleep, no race with a busy machine.
    @Test func anEntryServesItsOwnUserForItsLifetimeOnly() {
        let start = ContinuousClock.now
        let elapsed = Locked(Duration.zero)
        let cache = StaffCallerCache(lifetime: .seconds(2), now: { start + elapsed.value })
        Self.fill(cache, session: "s1", user: "u1")
        #expect(cache.entry(sessionId: "s1", userId: "u1")?.user.id == "u1")
        // A token naming another user never gets this session's entry.
        #expect(cache.entry(sessionId: "s1", userId: "u2") == nil)
        elapsed.value = .milliseconds(1999)
        #expect(cache.entry(sessionId: "s1", userId: "u1") != nil)
        elapsed.value = .seconds(2)
        #expect(cache.entry(sessionId: "s1", userId: "u1") == nil)
        #expect(cache.count == 0)
    }

    @Test func forgettingASessionOrAUserDropsTheirEntries() {
        let cache = StaffCallerCache()
        Self.fill(cache, session: "s1", user: "u1")
        Self.fill(cache, session: "s2", user: "u1")
        Self.fill(cache, session: "s3", user: "u2")
        cache.forget(sessionId: "s3")
        #expect(cache.entry(sessionId: "s3", userId: "u2") == nil)
        #expect(cache.count == 2)
        cache.forget(userId: "u1")
        #expect(cache.count == 0)
    }

    @Test func aReadThatStartedBeforeAForgetDoesNotFillTheCache() {
        let cache = StaffCallerCache()
        let generation = cache.currentGeneration
        // The session is revoked while the read is in flight; what it read is not kept.
        cache.forget(sessionId: "s1")
        cache.remember(sessionId: "s1", user: Self.user("u1"), lastUsedAt: nil, readAt: cache.now(), generation: generation)
        #expect(cache.entry(sessionId: "s1", userId: "u1") == nil)
    }

    @Test func itHoldsAtMostItsCapacity() {
        let cache = StaffCallerCache(capacity: 3)
        for n in 0..<10 { Self.fill(cache, session: "s\(n)", user: "u\(n)") }
        #expect(cache.count <= 3)
        #expect(cache.entry(sessionId: "s9", userId: "u9") != nil)
    }
}
