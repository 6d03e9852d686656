import ArgumentParser
import ChordMap
import Foundation
import KeyboardLayout

/// `tap-uinput simulate`: Print what a tap script would type.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what a tap script would type.",
        discussion: """
            Reads a script from standard input, one event per line: a chord as five x/. marks \
            thumb first ("x.x..") or a number 1-31, "mouse VX VY", "gesture N", "device NAME", \
            "release-all" or "wait", each optionally followed by +NNNms, the time until the next \
            line (default 1000ms). "#" starts a comment. Prints the input events the daemon would \
            write (KEY_A 1, KEY_A 0, REL_X 5, ...; "@300ms" marks the time), or with --text the \
            text a desktop with that keyboard layout would show (libxkbcommon, the same code the \
            daemon types with).
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: "Keymap file (default: the built-in TapCode keymap).")
    var keymap: String?

    @Flag(help: "Print the typed text instead of input events.")
    var text = false

    @OptionGroup var layout: LayoutOption

    func run() throws {
        var map = KeymapLoader.builtinDefault
        if let keymap {
            do {
                map = try KeymapLoader.load(path: keymap)
            } catch {
                printError(error.description)
                throw ExitCode(1)
            }
        }
        var script = ""
        while let line = readLine(strippingNewline: false) { script += line }
        let xkb = try layout.compile(for: map)
        let characters = CharacterMap(xkb)
        let untypeable = map.resolvingCharacters(with: characters).untypeable
        for missing in untypeable { printError(missing.description) }
        if !untypeable.isEmpty { printError("   " + UntypeableCharacter.hint) }
        do {
            let decoder = text ? XKBTextDecoder(xkb) : nil
            print(try Simulator.run(script: script, keymap: map, characters: characters, text: decoder),
                  terminator: text ? "\n" : "")
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
