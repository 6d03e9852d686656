import ArgumentParser
import Glibc
import TapBLE

/// `tap-uinput raw`: Stream raw sensor data as CSV.
struct Raw: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stream raw sensor data as CSV.",
        discussion: """
            Puts the Tap in raw sensor mode (Developer mode must be enabled in Tap Manager) \
            and prints one line per record: device,kind,timestamp_ms,then 6 IMU values \
            (gyro x,y,z in deg/s, accel x,y,z in g) or 15 finger values (thumb..pinky x,y,z in g). \
            Ctrl-C puts the Tap back in text mode.
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: "Device address (AA:BB:CC:DD:EE:FF); default: every connected Tap.")
    var device: String?

    @Option(help: "Sensitivity indices: finger accelerometer (0-4), gyro (0-5), IMU accelerometer (0-4).")
    var sensitivity: String = "0,0,0"

    @Flag(help: "Print the raw integer samples instead of physical units.")
    var rawValues = false

    @Option(help: "Seconds to wait for the device.")
    var timeout: Int = 20

    func validate() throws {
        guard RawSensitivity(parsing: sensitivity) != nil else {
            throw ValidationError("--sensitivity wants F,G,A with F 0-4, G 0-5, A 0-4")
        }
    }

    func run() throws {
        try logging.bootstrap()
        var options = TapManager.Options()
        options.defaultMode = .raw(RawSensitivity(parsing: sensitivity)!)
        options.devices = device.map { [$0] }
        options.requestAirGestureStateOnConnect = false
        let tool = try BLETool(options: options)
        print("device,kind,timestamp_ms," + (0..<15).map { "v\($0)" }.joined(separator: ","))
        let showRaw = rawValues
        tool.manager.onEvent = { event in
            guard case .input(let id, .raw(let records)) = event else { return }
            for r in records {
                let values = showRaw ? r.raw.map { "\($0)" } : r.values.map { formatValue($0) }
                print("\(id),\(r.kind == .imu ? "imu" : "fingers"),\(r.timestamp)," + values.joined(separator: ","))
            }
            fflush(nil)
        }
        _ = try tool.readyDevices(timeoutSeconds: timeout, device: device)
        var stopping = false
        try tool.loop.handleSignals([SIGINT, SIGTERM]) { _ in
            guard !stopping else { return }
            stopping = true
            tool.manager.stop(restoreTextMode: true) { tool.loop.stop() }
            // Do not hang on a dead link.
            tool.loop.schedule(afterMilliseconds: 3000) { tool.loop.stop() }
        }
        tool.loop.run()
    }
}

/// Six decimals, without Foundation.
private func formatValue(_ v: Double) -> String {
    let scaled = (v * 1_000_000).rounded()
    let sign = scaled < 0 ? "-" : ""
    let a = Int(abs(scaled))
    let frac = String(a % 1_000_000)
    return "\(sign)\(a / 1_000_000).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
}
