import ArgumentParser
import TapBLE

/// `tap-uinput mode`: Set a device's input mode.
struct Mode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set a device's input mode.",
        discussion: """
            MODE is text, controller, controller-mouse, controller-text, raw or raw:F,G,A. \
            The firmware falls back to text mode unless someone (the daemon) refreshes \
            the mode every few seconds, so this is mostly useful to go back to text.
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: "Device address (AA:BB:CC:DD:EE:FF); default: every connected Tap.")
    var device: String?

    @Option(help: "Seconds to wait for the device.")
    var timeout: Int = 20

    @Argument(help: "The mode.")
    var mode: String

    func validate() throws {
        guard InputMode(parsing: mode) != nil else { throw ValidationError("unknown mode '\(mode)'") }
    }

    func run() throws {
        try logging.bootstrap()
        let target = InputMode(parsing: mode)!
        var options = TapManager.Options()
        options.defaultMode = nil
        options.subscribe = false
        options.devices = device.map { [$0] }
        let tool = try BLETool(options: options)
        let ready = try tool.readyDevices(timeoutSeconds: timeout, device: device)
        let ok = tool.wait(timeoutSeconds: 10) { done in tool.manager.setMode(target, device: device, completion: done) }
        guard ok == true else { throw ValidationError("writing the mode failed") }
        for d in ready { print("\(d.id): \(target)") }
    }
}
