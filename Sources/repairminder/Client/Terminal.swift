import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading input for the client commands: prompts on a terminal, plain lines from a pipe.
enum Terminal {
    static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 }

    /// Prints `prompt` (on a terminal only) and reads a line; nil at end of input.
    static func ask(_ prompt: String) -> String? {
        if isInteractive {
            FileHandle.standardError.write(Data(prompt.utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// Reads a secret without echoing it on a terminal.
    static func askSecret(_ prompt: String) -> String? {
        guard isInteractive else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// A message for the person, on standard error so standard output stays for results.
    static func note(_ text: String) {
        sayError(text)
    }
}
