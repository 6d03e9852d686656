import ArgumentParser
import TapBLE

/// `tap-uinput vibrate`: Play a haptic sequence.
struct Vibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a haptic sequence.",
        discussion: "Durations alternate on, off, on, … in milliseconds (10–2550, at most 18).")
    @OptionGroup var logging: LogOptions

    @Option(help: "Device address (AA:BB:CC:DD:EE:FF); default: every connected Tap.")
    var device: String?

    @Option(help: "Seconds to wait for the device.")
    var timeout: Int = 20

    @Argument(help: "Durations in milliseconds.")
    var durations: [Int]

    func validate() throws {
        guard !durations.isEmpty, durations.count <= TapCommand.maxHapticDurations else {
            throw ValidationError("give 1 to \(TapCommand.maxHapticDurations) durations")
        }
        guard durations.allSatisfy({ $0 > 0 }) else { throw ValidationError("durations must be positive") }
    }

    func run() throws {
        try logging.bootstrap()
        var options = TapManager.Options()
        options.defaultMode = nil
        options.subscribe = false
        options.devices = device.map { [$0] }
        let tool = try BLETool(options: options)
        _ = try tool.readyDevices(timeoutSeconds: timeout, device: device)
        let ok = tool.wait(timeoutSeconds: 10) { done in tool.manager.vibrate(durations, device: device, completion: done) }
        guard ok == true else { throw ValidationError("the haptic write failed") }
    }
}
