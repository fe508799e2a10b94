import Foundation

/// The settings' declarations written out for people: a section of a command's `--help`,
/// wrapped to the terminal, and docs/configuration.md's table (a test keeps that copy current).
public enum SettingsHelp {
    /// How the three ways of giving a setting are named, said once above every list.
    static let naming =
        "Each setting is a flag, an environment variable (--data-dir: REPAIRMINDER_DATA_DIR) and a key of the --config file (data-dir), in that order of precedence. A secret can instead be a file holding it (--jwt-secret-file, REPAIRMINDER_JWT_SECRET_FILE, jwt-secret-file), so it shows neither in ps nor in the environment. Durations are in seconds."

    /// `settings` as help lists options, wrapped to `width` columns.
    public static func terminalSection(_ settings: [Setting], width: Int) -> String {
        // ArgumentParser wraps help again at `width` and breaks a line of exactly that length.
        let width = max(width, 40) - 1
        var lines = ["SETTINGS:"] + wrap(naming, width: width, indent: 2)
        for setting in settings {
            let label = "  \(setting.flag) \(setting.kind.placeholder)"
            var help = plain(setting.help) + " (default: \(plain(setting.defaultDescription)))"
            if let fileKey = setting.fileKey { help += " Secret; or --\(fileKey) <path>." }
            let helpLines = wrap(help, width: width, indent: labelColumn)
            if label.count < labelColumn - 1, helpLines[0].count <= width {
                let first = helpLines[0].drop(while: { $0 == " " })
                lines.append(label.padding(toLength: labelColumn, withPad: " ", startingAt: 0) + first)
                lines += helpLines.dropFirst()
            } else {
                lines.append(label)
                lines += helpLines
            }
        }
        return lines.joined(separator: "\n")
    }

    /// docs/configuration.md's table of every setting, in Markdown.
    public static func markdownTable(_ settings: [Setting] = ServerSettings.declarations) -> String {
        var rows = ["| flag, or `REPAIRMINDER_*` variable, or config key | default | meaning |", "|---|---|---|"]
        for setting in settings {
            var meaning = setting.help.replacingOccurrences(of: "|", with: "\\|")
            if let fileKey = setting.fileKey { meaning += " Secret: or `--\(fileKey)`, a file holding it." }
            let shownDefault = setting.defaultDescription == "none" ? "none" : "`\(setting.defaultDescription)`"
            rows.append("| `\(setting.flag)` | \(shownDefault) | \(meaning) |")
        }
        return rows.joined(separator: "\n")
    }

    /// Where option help starts, as ArgumentParser aligns its own.
    private static let labelColumn = 28

    /// `text` without Markdown's backticks.
    private static func plain(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "") }

    /// `text` in lines of at most `width` columns, each indented by `indent` spaces; a word
    /// longer than a line gets a line of its own.
    static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        for word in text.split(separator: " ") {
            if line.count > indent, line.count + 1 + word.count > width {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
