import Foundation
import Testing

/// Every command's `--help`, as an operator reads it in an 80-column terminal: no line wider
/// than the terminal, prose wrapped by ArgumentParser (not by hand), and an example. The
/// commands are found by the binary's own description of itself (`--experimental-dump-help`),
/// so a new command or subcommand is checked without being listed here.
@Suite struct HelpTests {
    static let width = 80

    /// One command of the tree: its words after `repairminder`, and what the dump says of it.
    struct Command: CustomStringConvertible {
        let path: [String]
        let discussion: String
        let options: [[String: Any]]
        var description: String { (["repairminder"] + path).joined(separator: " ") }
    }

    /// Every command and subcommand, depth first, the root included; ArgumentParser's own
    /// `help` subcommand is left out (it prints the root's help, which is checked).
    static func commands() throws -> [Command] {
        let dump = try CommandLineTests.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var found: [Command] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            found.append(
                Command(
                    path: path, discussion: command["discussion"] as? String ?? "",
                    options: command["arguments"] as? [[String: Any]] ?? []))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, !(path.isEmpty && name == "help") else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(json["command"] as? [String: Any]), [])
        return found
    }

    @Test func everyCommandIsFound() throws {
        let names = try Self.commands().map(\.description)
        #expect(names.contains("repairminder"))
        #expect(names.contains("repairminder company approve"))
        #expect(names.contains("repairminder totp setup"))
        #expect(names.count > 30, "\(names)")
    }

    @Test func noHelpLineIsWiderThanAnEightyColumnTerminal() throws {
        for command in try Self.commands() {
            let help = try Self.help(command.path)
            #expect(help.status == 0, "\(command): \(help.error)")
            for line in help.output.split(separator: "\n", omittingEmptySubsequences: false) where line.count > Self.width {
                Issue.record("\(command) --help has a line of \(line.count) columns: \(line)")
            }
        }
    }

    /// An example under `EXAMPLES:` that runs this very command (a parent's may run one of
    /// its subcommands).
    @Test func everyCommandHasAnExample() throws {
        for command in try Self.commands() {
            guard let heading = command.discussion.range(of: "EXAMPLES:\n") else {
                Issue.record("\(command) has no EXAMPLES: in its discussion")
                continue
            }
            let examples = command.discussion[heading.upperBound...].split(separator: "\n").filter { $0.hasPrefix("  ") }
            if !examples.contains(where: { $0.contains(command.description + (command.path.isEmpty ? " " : "")) }) {
                Issue.record("\(command) has no example running it: \(examples)")
            }
        }
    }

    /// ArgumentParser wraps each paragraph to the terminal; a line break inside one (written
    /// for some other width) comes out ragged. Prose is one source line per paragraph; only
    /// indented lines (examples, lists) stand on their own.
    @Test func proseIsWrappedByTheTerminalNotByHand() throws {
        for command in try Self.commands() {
            let lines = command.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst())
            where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") {
                Issue.record("\(command): a line break inside a paragraph, after \"\(line)\"")
            }
            // An indented line (an example) stands as written: one wider than the terminal is
            // broken by ArgumentParser in the middle of a command.
            for line in lines where line.hasPrefix(" ") && line.count > Self.width {
                Issue.record("\(command): an example line of \(line.count) columns: \(line)")
            }
            for option in command.options {
                let text = [option["abstract"], option["discussion"]].compactMap { $0 as? String }.joined()
                if text.contains("\n") { Issue.record("\(command): a line break in an option's help: \(text)") }
                // ArgumentParser states a declared default itself: a "(default: ...)" written
                // into the help too comes out twice.
                if option["defaultValue"] != nil, text.contains("(default:") {
                    Issue.record("\(command): an option's default is stated twice: \(text)")
                }
            }
        }
    }

    /// `--server` is one shared option: its default is stated wherever it is taken.
    @Test func clientCommandsStateTheServersDefault() throws {
        var clients = 0
        for command in try Self.commands() {
            for option in command.options where (option["preferredName"] as? [String: Any])?["name"] as? String == "server" {
                clients += 1
                #expect((option["abstract"] as? String ?? "").contains("http://127.0.0.1:8080"), "\(command)")
            }
        }
        #expect(clients >= 15)
    }

    /// `repairminder <path> --help` in an 80-column terminal.
    static func help(_ path: [String]) throws -> (status: Int32, output: String, error: String) {
        try CommandLineTests.run(path + ["--help"], environment: ProcessInfo.processInfo.environment.merging(["COLUMNS": String(width)]) { $1 })
    }
}
