/// Runs `body`, then waits until `duration` has passed since it started: an answer that does
/// more work for an address with an account (issuing a code, queueing a mail) then takes as
/// long as one for an address without, so timing does not tell them apart (docs/API.md §2.4,
/// §9, §10). A failure answers at once: it says nothing about the account.
func takingAtLeast<T>(_ duration: Duration, _ body: () async throws -> T) async rethrows -> T {
    let started = ContinuousClock.now
    let result = try await body()
    try? await Task.sleep(until: started + duration)
    return result
}
