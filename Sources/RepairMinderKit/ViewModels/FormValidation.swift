import Foundation
import RepairMinderModels

/// Input rules shared by the sign-in screens.
public enum FormValidation {
    /// Trimmed, and shaped like an address by the rule the server applies (`EmailAddress`).
    public static func isValidEmail(_ input: String) -> Bool {
        EmailAddress.isValid(input.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Keeps the digits of what was typed or pasted, at most `length`.
    public static func digits(_ input: String, length: Int = 6) -> String {
        String(input.filter { $0.isASCII && $0.isNumber }.prefix(length))
    }

    /// A recovery code as typed: letters and digits, uppercased, at most 8.
    public static func recoveryCode(_ input: String) -> String {
        String(input.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(8))
    }
}

/// Loading and error state of a screen, and the one way to run its server call.
@MainActor
public protocol AsyncForm: AnyObject {
    var isLoading: Bool { get set }
    var errorMessage: String? { get set }
}

extension AsyncForm {
    /// Runs `operation` with the loading flag set, turning a failure into `errorMessage`.
    /// Returns whether it succeeded. A second call while one runs is ignored.
    @discardableResult
    public func perform(_ operation: () async throws -> Void) async -> Bool {
        guard !isLoading else { return false }
        isLoading = true
        errorMessage = nil
        defer { isLoading = false }
        do {
            try await operation()
            return true
        } catch let error as APIError {
            errorMessage = error.message
        } catch let error as PasskeyError {
            // nil when the person closed the system's passkey sheet: nothing went wrong.
            errorMessage = error.message
        } catch {
            errorMessage = "Something went wrong. Please try again."
        }
        return false
    }
}
