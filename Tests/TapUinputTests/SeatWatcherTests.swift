import DBus
import EventLoop
import TestKit
import Testing
@testable import TapUinput

/// Whose session is active on seat0, from a stand-in for logind's seat and session objects on
/// a real private bus (the same properties and signal; the systemd e2e guest runs the real
/// logind and switches sessions with `loginctl activate`).
/// logind's seat0 and two sessions, c1 (uid `ours`) and c2 (uid `ours + 1`), on a private bus.
final class LogindStandIn {
    let connection: DBusConnection
    private(set) var active = "/org/freedesktop/login1/session/c1"

    init(bus: PrivateBus, loop: EventLoop, ours: UInt32) throws {
        connection = try DBusConnection(bus: .address(bus.address), loop: loop)
        let seat = DBusObject(path: SeatWatcher.seatPath)
        seat.add(DBusInterface(name: "org.freedesktop.login1.Seat", properties: [
            "ActiveSession": DBusProperty(signature: "(so)") { [unowned self] in .structure([.string("c"), .objectPath(self.active)]) },
        ]))
        try connection.export(seat)
        for (id, uid) in [("c1", ours), ("c2", ours + 1)] {
            let session = DBusObject(path: "/org/freedesktop/login1/session/\(id)")
            session.add(DBusInterface(name: "org.freedesktop.login1.Session", properties: [
                "User": DBusProperty(signature: "(uo)") { .structure([.uint32(uid), .objectPath("/org/freedesktop/login1/user/_\(uid)")]) },
            ]))
            try connection.export(session)
        }
        try connection.requestName(SeatWatcher.logindName)
    }

    /// Makes `path` seat0's active session and announces it, as logind does on a switch.
    func switchTo(_ path: String) {
        active = path
        connection.emitSignal(path: SeatWatcher.seatPath, interface: DBusConnection.propertiesInterface, name: "PropertiesChanged",
                              arguments: [.string("org.freedesktop.login1.Seat"), .dictionary([:]), .strings(["ActiveSession"])])
    }
}

@Suite struct SeatWatcherTests {
    @Test func followsTheActiveSessionsUser() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let logind = try LogindStandIn(bus: bus, loop: loop, ours: 1000)
        func switchTo(_ path: String) { logind.switchTo(path) }

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
