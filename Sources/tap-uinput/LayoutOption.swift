import ArgumentParser
import ChordMap
import KeyboardLayout

/// `--layout NAME`: the keyboard layout characters are typed for, for the commands that type.
struct LayoutOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Keyboard layout to type characters for, by XKB name: de, fr, us(dvorak), de(nodeadkeys), us,de.",
        discussion: "Default: the keymap's [options] layout, else us.",
        valueName: "NAME"))
    var layout: String?

    func validate() throws {
        if let layout, LayoutNames(spelling: layout) == nil {
            throw ValidationError("\"\(layout)\" is not a layout name: write e.g. de, fr(azerty), us(dvorak)")
        }
    }

    /// The layout for `keymap`: `--layout`, else the keymap's own option, else US.
    func report(for keymap: Keymap) -> LayoutReport {
        if let names = layout.flatMap(LayoutNames.init(spelling:)) { return LayoutReport(.names(names), origin: "option") }
        if let names = keymap.options.layout.flatMap(LayoutNames.init(spelling:)) { return LayoutReport(.names(names), origin: "keymap") }
        return .fallback
    }

    /// The compiled layout for `keymap`, or exit 1 with the reason.
    func compile(for keymap: Keymap) throws -> XKBKeymap {
        do {
            return try XKBKeymap(report(for: keymap))
        } catch {
            printError("error: \(error.description)")
            throw ExitCode(1)
        }
    }
}
