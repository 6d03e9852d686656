import ArgumentParser
import ChordMap
import KeyboardLayout
import TapBLE
import TapUinput

/// `tap-uinput run`: the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon.",
        discussion: """
            Connects to paired TAP devices through BlueZ, puts them in controller mode and types \
            what their chords mean in the keymap, through two uinput devices ("TapUinput keyboard", \
            "TapUinput pointer"). Keymap: --keymap FILE, else $XDG_CONFIG_HOME/tapuinput/keymap.toml, \
            else the built-in TapCode keymap. SIGHUP reloads the keymap; SIGTERM/SIGINT release every \
            key and put the devices back in text mode.
            """)

    @OptionGroup var logging: LogOptions

    @Option(help: "Keymap file (default: $XDG_CONFIG_HOME/tapuinput/keymap.toml, else the built-in TapCode keymap).")
    var keymap: String?

    @Option(help: "Input mode to keep the devices in: controller, controller+mouse, controller+text, text.")
    var mode: String = "controller"

    @Option(help: "Seconds between mode refreshes (the device falls back to text mode without them).")
    var modeRefresh: Int = 10

    @Option(name: .customLong("device"), help: "Only manage this device (address); repeatable.")
    var devices: [String] = []

    @Option(help: "The uinput device node.")
    var uinput: String = "/dev/uinput"

    @Flag(help: "Leave the devices in controller mode on exit instead of restoring text mode.")
    var noRestoreTextMode = false

    @Option(help: ArgumentHelp(
        "Keyboard layout to type characters for (XKB name: de, fr, us(dvorak)), instead of the desktop's.",
        valueName: "NAME"))
    var layout: String?

    @Flag(help: "Show no desktop notifications (connects, disconnects, low battery, keymap errors).")
    var noNotifications = false

    @Option(help: ArgumentHelp("Notify when a device's battery falls below this percentage.", valueName: "PERCENT"))
    var batteryLow: Int = BatteryThreshold.defaultLowPercent

    func validate() throws {
        guard (1...100).contains(batteryLow) else { throw ValidationError("--battery-low must be a percentage, 1 to 100") }
        guard InputMode(parsing: mode) != nil else { throw ValidationError("unknown mode '\(mode)'") }
        if let layout, LayoutNames(spelling: layout) == nil {
            throw ValidationError("\"\(layout)\" is not a layout name: write e.g. de, fr(azerty), us(dvorak)")
        }
        guard modeRefresh >= 1 else { throw ValidationError("--mode-refresh must be at least 1 second") }
    }

    func run() throws {
        try logging.bootstrap()
        var options = Daemon.Options()
        options.keymapPath = keymap
        options.uinputPath = uinput
        options.manager.defaultMode = InputMode(parsing: mode)
        options.manager.modeRefreshMilliseconds = modeRefresh * 1000
        options.manager.devices = devices.isEmpty ? nil : Set(devices.map { $0.uppercased() })
        options.restoreTextModeOnExit = !noRestoreTextMode
        options.layout = layout.flatMap(LayoutNames.init(spelling:))
        options.notifications.enabled = !noNotifications
        options.notifications.batteryLowPercent = batteryLow
        do {
            let code = try Daemon(options: options).run()
            if code != 0 { throw ExitCode(code) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            // Keymap diagnostics, uinput hints, "already running": written for people, printed as they are.
            printError("\(error)")
            throw ExitCode.failure
        }
    }
}
