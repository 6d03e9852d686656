import ArgumentParser
import ChordMap
import Foundation
import TapUinput

/// `tap-uinput cheatsheet [--keymap FILE] [--layer NAME] [--format svg|html] > out`: Print a chart
/// of every chord in a keymap.
///
/// Writes the sheet to standard output. Exit status 1 with the keymap's positioned diagnostics (or
/// the list of layers, for an unknown `--layer`) on standard error.
struct Cheatsheet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a chart of a keymap's chords, for paper or screen (HTML or SVG).",
        discussion: """
            Each chord is drawn as a hand, thumb on the left, tapped fingers filled, with what one, \
            two (×2) and three (×3) taps do; one section per layer, plus gestures. The HTML prints \
            one layer per A4 page. Example: tap-uinput cheatsheet > tapcode.html
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: ArgumentHelp("Keymap file (TOML). Default: the built-in TapCode keymap.", valueName: "file"))
    var keymap: String?

    @Option(help: ArgumentHelp("Show only this layer (and no gestures).", valueName: "name"))
    var layer: String?

    @Option(help: "html: a page that prints one layer per A4 sheet; svg: one standalone image.")
    var format: CheatsheetFormat = .html

    func run() throws {
        try logging.bootstrap()
        let map: Keymap
        do {
            map = try keymap.map { path throws(KeymapError) in try KeymapLoader.load(path: path) } ?? KeymapLoader.builtinDefault
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        do {
            let sheet = try CheatsheetRenderer(keymap: map, layer: layer)
            FileHandle.standardOutput.write(Data(sheet.render(format).utf8))
        } catch {
            printError("error: " + error.description)
            throw ExitCode(1)
        }
    }
}

extension CheatsheetFormat: ExpressibleByArgument {}
