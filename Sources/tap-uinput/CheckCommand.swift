import ArgumentParser
import ChordMap
import Foundation
import KeyboardLayout

/// `tap-uinput check FILE...`: Validate keymap files.
///
/// Exit status 0 when every file is valid; 1 with every diagnostic (file:line:column, the line,
/// a caret and a hint) on standard error when any is not.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate keymap files.",
        discussion: """
            Prints one summary line per valid file, and every problem in the others. Characters \
            the keyboard layout cannot type are warnings (the keymap still loads; they type nothing).
            """)
    @OptionGroup var logging: LogOptions
    @OptionGroup var layout: LayoutOption

    @Argument(help: "Keymap files (TOML).")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one keymap file") }
    }

    func run() throws {
        var failed = false
        for file in files {
            let keymap: Keymap
            do {
                keymap = try KeymapLoader.load(path: file)
            } catch {
                failed = true
                printError(error.description)
                continue
            }
            let chords = keymap.layers.reduce(0) { $0 + $1.bindings.count + $1.handBindings.count + $1.sequences.count }
            let characters = CharacterMap(try layout.compile(for: keymap))
            let untypeable = keymap.resolvingCharacters(with: characters).untypeable
            for missing in untypeable { printError(missing.description) }
            if !untypeable.isEmpty { printError("   " + UntypeableCharacter.hint) }
            let warnings = untypeable.isEmpty ? "" : ", \(untypeable.count) untypeable on \(characters.name)"
            print("\(file): ok (\"\(keymap.name)\", \(keymap.layers.count) layers, \(chords) bindings\(warnings))")
        }
        if failed { throw ExitCode(1) }
    }
}
