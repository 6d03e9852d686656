import DBus
import EventLoop
import TapBLE
import TestKit
import Testing
@testable import TapUinput

/// PrepareForSleep from a fake logind on a real private dbus-daemon.
@Suite struct SleepWatcherTests {
    @Test func prepareForSleepFromLogindIsDelivered() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let daemonSide = try DBusConnection(bus: .address(bus.address), loop: loop)
        let logind = try DBusConnection(bus: .address(bus.address), loop: loop)
        let impostor = try DBusConnection(bus: .address(bus.address), loop: loop)
        try logind.requestName(SleepWatcher.logindName)

        var seen: [Bool] = []
        let watcher = SleepWatcher(connection: daemonSide) { seen.append($0) }
        _ = watcher
        // Let the AddMatch reach the bus before signalling.
        loop.run(until: { false }, timeoutMilliseconds: 100)

        // A signal of the same shape from another sender must be ignored: only logind may
        // make the daemon release keys.
        impostor.emitSignal(path: "/org/freedesktop/login1", interface: SleepWatcher.managerInterface,
                            name: "PrepareForSleep", arguments: [.bool(true)])
        logind.emitSignal(path: "/org/freedesktop/login1", interface: SleepWatcher.managerInterface,
                          name: "PrepareForSleep", arguments: [.bool(true)])
        logind.emitSignal(path: "/org/freedesktop/login1", interface: SleepWatcher.managerInterface,
                          name: "PrepareForSleep", arguments: [.bool(false)])
        #expect(loop.run(until: { seen.count == 2 }, timeoutMilliseconds: 3000))
        loop.run(until: { false }, timeoutMilliseconds: 100)
        #expect(seen == [true, false])
    }
}
