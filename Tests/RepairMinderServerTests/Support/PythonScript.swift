import Foundation

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

    /// Runs `.ci/<name>` with `arguments`: nil when it exits 0, else what it printed.
    static func verdict(_ name: String, _ arguments: [String]) async throws -> String? {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/\(name)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // Waited for off the concurrency pool: the server under test answers the script from it.
        let text = try await withCheckedThrowingContinuation { (done: CheckedContinuation<String, any Error>) in
            DispatchQueue.global().async {
                do {
                    try process.run()
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: text)
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
        return process.terminationStatus == 0 ? nil : text
    }
}
