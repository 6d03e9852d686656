import ChordMap
import DBus
import EventLoop
import KeyboardLayout
import TapBLE
import TestKit
@testable import TapUinput

/// A stand-in for the daemon at the ``ControlHandler`` seam. Keymap requests go to a real
/// ``KeymapSelector`` and `SetFocus` to a real ``PushedFocusSource``, wired the way the daemon
/// wires them; device requests are recorded and answered as configured.
final class FakeDaemon: ControlHandler {
    var status = ControlStatus()
    let selector: KeymapSelector
    let pushed = PushedFocusSource(noneGraceMilliseconds: 0)
    var devices: Set<String> = ["AA:BB:CC:DD:EE:01"]
    var vibrations: [(device: String, durations: [Int])] = []
    var modes: [(device: String, mode: String)] = []
    /// When set, device requests are answered from this loop's timer instead of at once.
    var answerLaterOn: EventLoop?

    init(keymapDirectory: String, loop: EventLoop) throws {
        var catalog = KeymapCatalog(directory: keymapDirectory)
        catalog.reload()
        selector = KeymapSelector(catalog: catalog)
        try pushed.start(on: loop) { [unowned self] in self.selector.focusChanged($0) }
    }

    func controlStatus() -> ControlStatus {
        var s = status
        s.fill(from: selector)
        return s
    }

    func controlReload() throws(ControlError) {
        do { try selector.reload() } catch { throw .invalidKeymap(error) }
    }

    func controlSetKeymap(path: String) throws(ControlError) {
        do { try selector.setOverride(path: path) } catch { throw .invalidKeymap(error) }
    }

    func controlSetFocus(appID: String, title: String) {
        pushed.push(appID: appID, title: title)
    }

    var layouts: [String] = []
    func controlSetLayout(origin: String, layout: LayoutNames?) {
        layouts.append("\(origin) \(layout?.description ?? "-")")
    }

    func controlVibrate(device: String, durationsMs: [Int], done: @escaping (ControlError?) -> Void) {
        guard device.isEmpty || devices.contains(device) else { done(.unknownDevice(device)); return }
        vibrations.append((device, durationsMs))
        answer(done)
    }

    func controlSetMode(device: String, mode: String, done: @escaping (ControlError?) -> Void) {
        guard device.isEmpty || devices.contains(device) else { done(.unknownDevice(device)); return }
        guard ["text", "controller"].contains(mode) else { done(.invalidArgument("unknown mode \"\(mode)\"")); return }
        modes.append((device, mode))
        answer(done)
    }

    private func answer(_ done: @escaping (ControlError?) -> Void) {
        if let loop = answerLaterOn { loop.schedule(afterMilliseconds: 50) { done(nil) } } else { done(nil) }
    }
}

/// A private bus with the service (on its own connection) and a client, all on one loop.
final class ControlHarness {
    let bus: PrivateBus
    let loop: EventLoop
    let keymaps: KeymapFixtureDirectory
    let daemon: FakeDaemon
    let serviceConnection: DBusConnection
    let service: ControlService
    let client: ControlClient

    init() throws {
        bus = try PrivateBus()
        loop = try EventLoop()
        keymaps = try KeymapFixtureDirectory()
        try keymaps.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main"))
        try keymaps.write("web.toml", KeymapFixtureDirectory.keymap(name: "web", apps: ["firefox"]))
        daemon = try FakeDaemon(keymapDirectory: keymaps.path, loop: loop)
        serviceConnection = try DBusConnection(bus: .address(bus.address), loop: loop)
        service = try ControlService(connection: serviceConnection, handler: daemon)
        client = try ControlClient(bus: .address(bus.address), loop: loop)
        client.timeoutMilliseconds = 3000
    }

    /// A raw call, for argument shapes the client never sends.
    func rawCall(_ method: String, _ arguments: [DBusValue]) -> DBusReply {
        var result: DBusReply?
        client.connection.call(.methodCall(destination: ControlInterface.busName, path: ControlInterface.objectPath,
                                           interface: ControlInterface.interface, method: method,
                                           arguments: arguments), timeoutMilliseconds: 3000) { result = $0 }
        loop.run(until: { result != nil }, timeoutMilliseconds: 4000)
        return result ?? .failure(DBusError(name: "test.NoAnswer", message: ""))
    }

    /// Runs the loop for `milliseconds` (lets signals and match rules travel).
    func settle(_ milliseconds: Int = 100) { loop.run(until: { false }, timeoutMilliseconds: milliseconds) }

    func stop() {
        client.connection.close()
        service.close()
        serviceConnection.close()
        keymaps.remove()
        bus.stop()
    }
}
