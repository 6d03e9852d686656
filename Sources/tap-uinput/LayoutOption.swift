import ArgumentParser
import ChordMap
import DBus
import EventLoop
import KeyboardLayout
import TapBLE
import TapUinput

/// `--layout NAME`: the keyboard layout characters are typed for, for the commands that type.
struct LayoutOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Keyboard layout to type characters for, by XKB name: de, fr, us(dvorak), de(nodeadkeys), us,de.",
        discussion: "Default: the keymap's [options] layout, else the desktop's (as the running daemon follows it), else systemd-localed's, else us.",
        valueName: "NAME"))
    var layout: String?

    func validate() throws {
        if let layout, LayoutNames(spelling: layout) == nil {
            throw ValidationError("\"\(layout)\" is not a layout name: write e.g. de, fr(azerty), us(dvorak)")
        }
    }

    /// The layout for `keymap`: `--layout`, else the keymap's own option, else the detected one.
    func report(for keymap: Keymap) -> LayoutReport {
        if let names = layout.flatMap(LayoutNames.init(spelling:)) { return LayoutReport(.names(names), origin: "option") }
        if let names = keymap.options.layout.flatMap(LayoutNames.init(spelling:)) { return LayoutReport(.names(names), origin: "keymap") }
        return Self.detected
    }

    /// The layout the user types on, found without a desktop connection of our own: the running
    /// daemon's (it follows the desktop live; not its keymap's own), else systemd-localed's, else US.
    static let detected: LayoutReport = {
        if let client = try? ControlClient(bus: .session), client.isDaemonRunning(), let status = try? client.status(),
           status.layoutOrigin != "keymap", let names = LayoutNames(spelling: status.layout) {
            return LayoutReport(.names(names), group: status.layoutGroup, origin: "daemon (\(status.layoutOrigin))")
        }
        if let loop = try? EventLoop(), let bus = try? DBusConnection(bus: .system, loop: loop),
           let report = LocaledLayoutWatcher.current(on: bus) {
            return report
        }
        return .fallback
    }()

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
