import DBus
import EventLoop
import Glibc
import TestKit
import Testing
@testable import TapUinput

/// The sleep delay lock, against a stand-in for logind's manager on a real private bus (the
/// systemd e2e guest runs the real logind and `systemctl suspend`).
@Suite struct SleepWatcherTests {
    @Test func theDelayLockIsHeldUntilTheReleaseAndTakenAgainAfterResume() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let logind = try DBusConnection(bus: .address(bus.address), loop: loop)
        var readEnds: [Int32] = []      // logind's side of each lock: EOF once the daemon closes it
        let manager = DBusObject(path: SleepWatcher.managerPath)
        manager.add(DBusInterface(name: SleepWatcher.managerInterface, methods: [
            "Inhibit": DBusMethod(in: "ssss", out: "h") { call in
                var fds: [Int32] = [0, 0]
                _ = pipe(&fds)
                readEnds.append(fds[0])
                call.reply([.unixFD(fds[1])])
                close(fds[1])           // libdbus sent a duplicate
            },
        ]))
        try logind.export(manager)
        try logind.requestName(SleepWatcher.logindName)
        defer { readEnds.forEach { close($0) } }
        func closedByDaemon(_ fd: Int32) -> Bool {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            return poll(&pfd, 1, 0) == 1 && read(fd, &byte, 1) == 0
        }

        let daemonSide = try DBusConnection(bus: .address(bus.address), loop: loop)
        var events: [String] = []
        let watcher = SleepWatcher(connection: daemonSide) { start in
            // What the daemon releases here must happen while logind still waits for the lock.
            events.append(start ? "sleep, lock held: \(!closedByDaemon(readEnds[0]))" : "resume")
        }
        #expect(loop.run(until: { watcher.inhibitor >= 0 }, timeoutMilliseconds: 5000))
        #expect(!closedByDaemon(readEnds[0]))
        logind.emitSignal(path: SleepWatcher.managerPath, interface: SleepWatcher.managerInterface, name: "PrepareForSleep", arguments: [.bool(true)])
        #expect(loop.run(until: { watcher.inhibitor < 0 }, timeoutMilliseconds: 5000))
        #expect(events == ["sleep, lock held: true"])
        #expect(closedByDaemon(readEnds[0]))
        logind.emitSignal(path: SleepWatcher.managerPath, interface: SleepWatcher.managerInterface, name: "PrepareForSleep", arguments: [.bool(false)])
        #expect(loop.run(until: { watcher.inhibitor >= 0 && readEnds.count == 2 }, timeoutMilliseconds: 5000))
        #expect(events == ["sleep, lock held: true", "resume"])
        #expect(!closedByDaemon(readEnds[1]))
    }
}
