/// Sessions (docs/API.md §9.4).

extension SessionInfo: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("id", .nonEmptyText),
                .init("current", .boolean),
                .init("isMobile", .boolean),
                .init("userAgent", .nullable(.text)),
                .init("ipAddress", .nullable(.text)),
                .init("createdAt", .timestamp),
                .init("lastUsedAt", .nullable(.timestamp)),
            ],
            description: "A live staff session (a signed-in device)")
    }
    public static var example: SessionInfo {
        SessionInfo(
            id: "7c1e9a3b-4d2f-4b8e-a6c5-0e9f3d2b1a74", current: true, isMobile: true,
            userAgent: "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)", ipAddress: "203.0.113.7",
            createdAt: "2026-11-18T08:12:00Z", lastUsedAt: WireExample.timestamp)
    }
}

extension RevokedSessionsResponse: WireType {
    public static var schema: JSONSchema { .object([.init("revoked", .integer(minimum: 0))]) }
    public static var example: RevokedSessionsResponse { RevokedSessionsResponse(revoked: 3) }
}

extension ActivityEvent: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("id", .nonEmptyText),
                .init("type", .cases(of: ActivityEventType.self)),
                .init("at", .timestamp),
                .init("ipAddress", .nullable(.text)),
                .init("userAgent", .nullable(.text)),
                .init("sessionId", .nullable(.text)),
            ],
            description: "A security event of the caller's account")
    }
    public static var example: ActivityEvent {
        ActivityEvent(
            id: "2b9d4e1f-6a3c-4f7e-9d21-8c5b0a3e7f16", type: .loginSucceeded,
            at: WireExample.timestamp, ipAddress: "203.0.113.7", userAgent: "RepairMinder-iOS/1.0 (iPhone; iOS 18.0)",
            sessionId: "7c1e9a3b-4d2f-4b8e-a6c5-0e9f3d2b1a74")
    }
}
