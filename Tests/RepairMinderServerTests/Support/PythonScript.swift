import Foundation
import TestSupport

/// The checks in `.ci/` written in Python with libraries we did not write (PyJWT, python-fido2),
/// run against a server under test.
enum PythonScript {
    /// Whether python3 imports `modules` (`"jwt, cryptography"`).
    static func canImport(_ modules: String) -> Bool {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import \(modules)"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    /// Whether this is a CI run (`CI` set, as CI services set it, and not `false` or `0`).
    static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !["", "false", "0", "no"].contains(value)
    }

    /// Whether a test that needs python3 with `modules` and the `programs` on the `PATH` runs:
    /// when they are all there, and always under CI, where a missing tool must fail the test (the
    /// script says what is missing) rather than skip it unseen.
    static func runs(needing modules: String, programs: [String] = []) -> Bool {
        isCI || (canImport(modules) && programs.allSatisfy(isOnPath))
    }

    /// Whether an executable `program` is in one of the `PATH`'s directories.
    static func isOnPath(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// Runs `.ci/<name>` with `arguments`: nil when it exits 0, else what it printed. A script
    /// still running after `deadline` is stopped, and what it printed then says where it was.
    static func verdict(_ name: String, _ arguments: [String], deadline: Duration = .seconds(150)) async throws -> String? {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/\(name)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stopped = Locked(false)
        // Waited for off the concurrency pool: the server under test answers the script from it.
        let text = try await withCheckedThrowingContinuation { (done: CheckedContinuation<String, any Error>) in
            DispatchQueue.global().async {
                do {
                    try process.run()
                    // SIGKILL: the script inherits this thread's blocked signals, SIGTERM among them.
                    let pid = process.processIdentifier
                    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(deadline.components.seconds))) {
                        guard process.isRunning else { return }
                        stopped.update { $0 = true }
                        kill(pid, SIGKILL)
                    }
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: text)
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
        if stopped.value { return "\(name) was still running after \(deadline) and was stopped; it had printed:\n\(text)" }
        return process.terminationStatus == 0 ? nil : text
    }
}
