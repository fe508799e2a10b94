import Foundation

/// Prints a line at once, unbuffered: progress must show even when output goes to a pipe or file.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
