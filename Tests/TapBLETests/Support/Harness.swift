import DBus
import TestKit
import EventLoop
import Logging
@testable import TapBLE

/// A private bus, the fake BlueZ on it, and a TapManager under test with its recorded events.
final class Harness {
    let bus: PrivateBus
    let loop: EventLoop
    var fake: FakeBlueZ
    let connection: DBusConnection
    let manager: TapManager
    var events: [TapEvent] = []
    let logger: Logger
    var scenario: [String: Any]

    init(devices: [[String: Any]], options: TapManager.Options = Harness.fastOptions, extra: [String: Any] = [:]) throws {
        bus = try PrivateBus()
        loop = try EventLoop()
        scenario = ["devices": devices]
        scenario.merge(extra) { _, n in n }
        fake = try FakeBlueZ(busAddress: bus.address, loop: loop, scenario: scenario)
        connection = try DBusConnection(bus: .address(bus.address), loop: loop)
        var logger = Logger(label: "test.ble")
        logger.logLevel = .critical
        self.logger = logger
        manager = TapManager(connection: connection, loop: loop, options: options, logger: logger)
        manager.onEvent = { [unowned self] e in self.events.append(e) }
    }

    static var fastOptions: TapManager.Options {
        var o = TapManager.Options()
        o.reconnectInitialMilliseconds = 100
        o.reconnectMaximumMilliseconds = 400
        o.modeRefreshMilliseconds = 60_000
        // Its asynchronous answer would race with the inputs tests inject; enabled where tested.
        o.requestAirGestureStateOnConnect = false
        return o
    }

    deinit {
        connection.close()
        fake.stop()
        bus.stop()
    }

    /// Runs the loop until `condition` holds (at most `ms`).
    /// The condition may depend on the fake's state, which does not wake the loop: poll it
    /// at least every 50 ms.
    @discardableResult
    func run(_ ms: Int = 5000, until condition: () -> Bool) -> Bool {
        let end = MonotonicInstant.now().adding(milliseconds: ms)
        while MonotonicInstant.now() < end {
            if loop.run(until: condition, timeoutMilliseconds: 50) { return true }
        }
        return condition()
    }

    /// Runs the loop for `ms`.
    func idle(_ ms: Int) { loop.run(until: { false }, timeoutMilliseconds: ms) }

    func count(_ p: (TapEvent) -> Bool) -> Int { events.filter(p).count }

    /// Waits until `n` connected events for `id` have arrived; returns the last one's info.
    @discardableResult
    func waitConnected(_ id: String, count n: Int = 1, ms: Int = 8000) -> TapDeviceInfo? {
        run(ms) { connectedInfos(id).count >= n }
        let infos = connectedInfos(id)
        return infos.count >= n ? infos.last : nil
    }

    func connectedInfos(_ id: String) -> [TapDeviceInfo] {
        events.compactMap { if case .connected(let i) = $0, i.id == id { i } else { nil } }
    }

    var inputs: [TapInput] { events.compactMap { if case .input(_, let i) = $0 { i } else { nil } } }

    /// Notifies and waits for the resulting input count to grow.
    func inject(_ address: String, _ uuid: String, _ bytes: [UInt8], expectInput: Bool = true) throws {
        let before = inputs.count
        try fake.notify(address, uuid, bytes)
        if expectInput { run(3000) { inputs.count > before } } else { idle(150) }
    }

    /// Replaces the fake BlueZ process (bluetoothd restarting).
    func restartFake() throws {
        fake.stop()
        fake = try FakeBlueZ(busAddress: bus.address, loop: loop, scenario: scenario)
    }
}
