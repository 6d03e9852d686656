import ArgumentParser
import ChordMap
import Foundation

/// `tap-uinput check FILE...`: Validate keymap files.
///
/// Exit status 0 when every file is valid; 1 with every diagnostic (file:line:column, the line,
/// a caret and a hint) on standard error when any is not.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate keymap files.",
        discussion: "Prints one summary line per valid file, and every problem in the others.")
    @OptionGroup var logging: LogOptions

    @Argument(help: "Keymap files (TOML).")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one keymap file") }
    }

    func run() throws {
        var failed = false
        for file in files {
            do {
                let keymap = try KeymapLoader.load(path: file)
                let chords = keymap.layers.reduce(0) { $0 + $1.bindings.count }
                print("\(file): ok (\"\(keymap.name)\", \(keymap.layers.count) layers, \(chords) bindings)")
            } catch {
                failed = true
                printError(error.description)
            }
        }
        if failed { throw ExitCode(1) }
    }
}
