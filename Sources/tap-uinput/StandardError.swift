import Foundation

/// Writes `text` and a newline to standard error (diagnostics, hints: text meant for people).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
