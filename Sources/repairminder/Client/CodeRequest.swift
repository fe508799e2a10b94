import Foundation
import RepairMinderKit

/// Asking the server to email a code, as the client commands do it: the server spaces two codes
/// to one address (or one login) 30 s apart and answers 429 `RATE_LIMITED` with `Retry-After`
/// inside that spacing (docs/API.md §7). Someone who runs `login` again a few seconds after a
/// mistyped code should wait those seconds, not start over; an hourly budget used up is
/// another matter, and is refused at once with when to come back.
enum CodeRequest {
    /// The longest `Retry-After` waited out. The spacing is 30 s by default; anything much
    /// longer is an hourly budget (up to an hour), which nobody should sit through.
    static let longestWait = 60

    /// How many refusals are waited out: after one wait the spacing is over, so a second is
    /// another client asking for the same address meanwhile; give up after a few.
    static let waits = 3

    /// Runs `request` (one code request), waiting out the resend spacing; `recipient` names
    /// the address in the message when the server's budget is used up.
    @MainActor
    static func send(to recipient: String, _ request: () async throws -> Void) async throws {
        var waited = 0
        while true {
            do {
                return try await request()
            } catch APIError.rateLimited(let seconds?, _) where seconds <= longestWait && waited < waits {
                waited += 1
                Terminal.note("Waiting \(seconds) s before the next code can be sent...")
                try await Task.sleep(for: .seconds(seconds))
            } catch APIError.rateLimited(let seconds, _) {
                Terminal.note("error: no more codes can be sent to \(recipient) for now: \(Self.retry(in: seconds))")
                throw ClientContext.Exit.refused
            }
        }
    }

    /// When to try again, in words.
    static func retry(in seconds: Int?) -> String {
        guard let seconds else { return "try again later" }
        if seconds < 120 { return "try again in \(seconds) s" }
        return "try again in about \((seconds + 59) / 60) minutes"
    }
}
