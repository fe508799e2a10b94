import Hummingbird

/// Whether a request comes from a mobile app: decides the 90-day vs 7-day refresh lifetime.
enum ClientKind {
    /// docs/API.md §1: a User-Agent containing `Mobile`, `Android`, `iPhone`, `iPad` or `iPod`.
    static func isMobile(_ request: Request) -> Bool {
        guard let agent = request.headers[.userAgent] else { return false }
        return ["Mobile", "Android", "iPhone", "iPad", "iPod"].contains { agent.contains($0) }
    }
}
