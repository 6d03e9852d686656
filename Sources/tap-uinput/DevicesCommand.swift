import ArgumentParser
import ChordMap
import DBus
import EventLoop
import Logging
import TapBLE
import TapUinput

/// `tap-uinput devices`: List paired TAP devices.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List paired TAP devices.",
        discussion: """
            Shows every paired Tap BlueZ knows, connected or not. Versions are read from \
            connected devices only; nothing is connected and no mode is written. ROLE is the \
            hand the device plays: the main keymap's [hands], else `pair --role` (hands.conf).
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: "Seconds to wait for bluetoothd and connected devices.")
    var timeout: Int = 10

    func run() throws {
        try logging.bootstrap()
        var options = TapManager.Options()
        options.defaultMode = nil
        options.subscribe = false
        options.autoConnect = false
        let tool = try BLETool(options: options)
        let devices = try tool.settle(timeoutSeconds: timeout)
        if devices.isEmpty {
            print("No paired TAP devices.")
            return
        }
        let roles = Self.roleLookup()
        let rows = [["ID", "NAME", "CONNECTED", "ROLE", "HW", "FW", "BATTERY", "PROTOCOL"]] + devices.map { d in
            [d.id, d.name, d.isConnected ? "yes" : "no", roles(d.id, d.name)?.rawValue ?? "-",
             d.hardwareVersion.map(VersionNumber.string) ?? "-", d.firmwareVersion.map(VersionNumber.string) ?? "-",
             d.battery.map { "\($0)%" } ?? "-",
             d.protocolVersion.map { $0 == .v2 ? "v2" : (d.isTapXR ? "v1 (TapXR)" : "v1") } ?? "-"]
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for r in rows {
            print(zip(r, widths).map { $0.0.padding(toLength: $0.1) }.joined(separator: "  "))
        }
    }
}

extension Devices {
    /// The role each device gets from the main keymap's `[hands]` and `hands.conf`, as the
    /// daemon finds it (a per-application keymap may name other hands while it is focused).
    static func roleLookup() -> (String, String) -> Hand? {
        let paths = ConfigPaths()
        let keymap = KeymapCatalog.load(paths: paths).main.keymap
        var problems: [String] = []
        let assignments = HandAssignments.load(path: paths.handsFile, problems: &problems)
        for p in problems { printError("warning: \(p)") }
        return { assignments.role(address: $0, name: $1, keymap: keymap) }
    }
}

/// What the BLE one-shot commands share: the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`), a
/// loop, and a ``TapManager`` run until it settles.
struct BLETool {
    let loop: EventLoop
    let connection: DBusConnection
    let manager: TapManager
    private final class Box { var events: [TapEvent] = [] }
    private let box = Box()

    init(options: TapManager.Options) throws {
        loop = try EventLoop()
        do {
            connection = try DBusConnection(bus: .system, loop: loop)
        } catch {
            throw BLEToolError("cannot connect to the system bus: \(error)")
        }
        manager = TapManager(connection: connection, loop: loop, options: options, logger: LogSetup.logger("ble"))
        let box = self.box
        manager.onEvent = { box.events.append($0) }
        manager.start()
    }

    /// Events seen so far.
    var events: [TapEvent] { box.events }

    /// Runs the loop until BlueZ answered and every device is ready or has failed once.
    func settle(timeoutSeconds: Int) throws -> [TapDeviceInfo] {
        let ms = timeoutSeconds * 1000
        guard loop.run(until: { manager.isBlueZAvailable || !manager.isRunning }, timeoutMilliseconds: min(ms, 5000)) else {
            throw BLEToolError("bluetoothd (org.bluez) is not on the system bus")
        }
        loop.run(until: { manager.isSettled || !manager.isRunning }, timeoutMilliseconds: ms)
        return manager.devices
    }

    /// Ready devices, or a clear error naming what went wrong.
    func readyDevices(timeoutSeconds: Int, device: String?) throws -> [TapDeviceInfo] {
        let all = try settle(timeoutSeconds: timeoutSeconds)
        let ready = all.filter(\.isReady)
        if ready.isEmpty {
            let failures = events.compactMap { if case .connectFailed(let id, let r) = $0 { "\(id): \(r)" } else { nil } }
            let what = device.map { "TAP device \($0)" } ?? "paired TAP device"
            throw BLEToolError("no \(what) is connected" + (failures.isEmpty ? "" : " (\(failures.joined(separator: "; ")))"))
        }
        return ready
    }

    /// Runs the loop until `done` is set by a completion, at most `timeoutSeconds`.
    func wait(timeoutSeconds: Int, _ start: (@escaping (Bool) -> Void) -> Void) -> Bool? {
        final class Result { var value: Bool? }
        let r = Result()
        start { r.value = $0 }
        loop.run(until: { r.value != nil }, timeoutMilliseconds: timeoutSeconds * 1000)
        return r.value
    }
}

/// A run-time failure of a BLE command (printed without the usage text; exit status 1).
struct BLEToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    func padding(toLength n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
