import Foundation
import RepairMinderModels

/// Prints a line at once, unbuffered: progress must show even when output goes to a pipe or file.
/// Control and bidi characters in it (a shop's name, a mail server's reply) are escaped
/// (`TextCharacters.escaped`): the operator's terminal never receives a raw escape sequence.
/// Line feeds the command wrote itself stay; a value that must stay on its row is escaped
/// whole by `shown`.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((TextCharacters.escaped(text, keepingLineFeeds: true) + "\n").utf8))
}

/// Prints one line of JSON, unbuffered, with the characters a JSON encoder leaves raw (C1, bidi
/// controls) as `\uXXXX` escapes: the same JSON, safe on a terminal.
func sayJSON(_ json: String) {
    FileHandle.standardOutput.write(Data((TextCharacters.escapedJSON(json) + "\n").utf8))
}

/// Writes a line to standard error, escaped as `say` does.
func sayError(_ text: String) {
    FileHandle.standardError.write(Data((TextCharacters.escaped(text, keepingLineFeeds: true) + "\n").utf8))
}

/// A stored value (a name, a user agent) as one row's cell: its line feeds escaped too, so a
/// value cannot start a row of its own.
func shown(_ value: String) -> String {
    TextCharacters.escaped(value)
}
