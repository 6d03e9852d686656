import DBus
import EventLoop
import TestKit
import Testing
@testable import TapUinput

/// Whose session is active on seat0, from a stand-in for logind's seat and session objects on
/// a real private bus (the same properties and signal; the systemd e2e guest runs the real
/// logind and switches sessions with `loginctl activate`).
@Suite struct SeatWatcherTests {
    @Test func followsTheActiveSessionsUser() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let logind = try DBusConnection(bus: .address(bus.address), loop: loop)
        var active = "/org/freedesktop/login1/session/c1"
        let seat = DBusObject(path: SeatWatcher.seatPath)
        seat.add(DBusInterface(name: "org.freedesktop.login1.Seat", properties: [
            "ActiveSession": DBusProperty(signature: "(so)") { .structure([.string("c1"), .objectPath(active)]) },
        ]))
        try logind.export(seat)
        for (id, uid) in [("c1", UInt32(1000)), ("c2", UInt32(1001))] {
            let session = DBusObject(path: "/org/freedesktop/login1/session/\(id)")
            session.add(DBusInterface(name: "org.freedesktop.login1.Session", properties: [
                "User": DBusProperty(signature: "(uo)") { .structure([.uint32(uid), .objectPath("/org/freedesktop/login1/user/_\(uid)")]) },
            ]))
            try logind.export(session)
        }
        try logind.requestName(SeatWatcher.logindName)
        func switchTo(_ path: String) {
            active = path
            logind.emitSignal(path: SeatWatcher.seatPath, interface: DBusConnection.propertiesInterface, name: "PropertiesChanged",
                              arguments: [.string("org.freedesktop.login1.Seat"), .dictionary([:]), .strings(["ActiveSession"])])
        }

        let daemonSide = try DBusConnection(bus: .address(bus.address), loop: loop)
        var changes: [Bool] = []
        let watcher = SeatWatcher(connection: daemonSide, uid: 1000) { changes.append($0) }
        _ = loop.run(until: { false }, timeoutMilliseconds: 300)
        #expect(watcher.isActive && changes.isEmpty)          // ours is active: nothing to report

        switchTo("/org/freedesktop/login1/session/c2")      // another user's session
        #expect(loop.run(until: { changes.count == 1 }, timeoutMilliseconds: 5000))
        #expect(!watcher.isActive)
        switchTo("/")                                        // no active session: not a reason to stop typing
        #expect(loop.run(until: { changes.count == 2 }, timeoutMilliseconds: 5000))
        switchTo("/org/freedesktop/login1/session/c2")
        #expect(loop.run(until: { changes.count == 3 }, timeoutMilliseconds: 5000))
        switchTo("/org/freedesktop/login1/session/c1")      // ours again
        #expect(loop.run(until: { changes.count == 4 }, timeoutMilliseconds: 5000))
        #expect(changes == [false, true, false, true] && watcher.isActive)
    }

    @Test func withoutLogindTheUserCountsAsActive() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let connection = try DBusConnection(bus: .address(bus.address), loop: loop)
        var changes: [Bool] = []
        let watcher = SeatWatcher(connection: connection, uid: 1000) { changes.append($0) }
        _ = loop.run(until: { false }, timeoutMilliseconds: 300)
        #expect(watcher.isActive && changes.isEmpty)
    }
}
