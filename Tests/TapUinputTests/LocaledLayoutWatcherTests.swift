import DBus
import EventLoop
import Glibc
import KeyboardLayout
import TapBLE
import TestKit
import Testing
@testable import TapUinput

/// The system layout from a real systemd-localed on a private bus, reading a keyboard file
/// bind-mounted over /etc/default in a mount namespace of its own (root only: `unshare -m`).
@Suite struct LocaledLayoutWatcherTests {
    @Test func readsTheLayoutFromLocaled() throws {
        try requireProgram("unshare")
        guard getuid() == 0, access("/lib/systemd/systemd-localed", X_OK) == 0 else {
            throw TestFailure("needs root and systemd-localed (Debian systemd) to run localed in a mount namespace")
        }
        let dir = try makeTemporaryDirectory("localed")
        defer { removeTree(dir) }
        try writeFile(dir + "/keyboard", """
            XKBMODEL="pc105"
            XKBLAYOUT="de,us"
            XKBVARIANT="nodeadkeys,"
            XKBOPTIONS="grp:alt_shift_toggle"

            """)
        let bus = try PrivateBus()
        defer { bus.stop() }
        let localed = try TestProcess(["unshare", "-m", "sh", "-c", "mount --bind \"$1\" /etc/default && exec /lib/systemd/systemd-localed", "sh", dir],
                                      environment: ["PATH": testPath, "DBUS_SYSTEM_BUS_ADDRESS": bus.address],
                                      logPath: dir + "/localed.log")
        defer { localed.terminate() }
        let loop = try EventLoop()
        let connection = try DBusConnection(bus: .address(bus.address), loop: loop)
        #expect(waitUntil(timeoutMilliseconds: 10_000) {
            (try? connection.callBlocking(.nameHasOwner(LocaledLayoutWatcher.busName)))?.first?.bool == true
        },
                "localed did not start: \(readFile(dir + "/localed.log"))")

        var reports: [LayoutReport] = []
        let watcher = LocaledLayoutWatcher(connection: connection) { reports.append($0) }
        #expect(loop.run(until: { !reports.isEmpty }, timeoutMilliseconds: 10_000))
        #expect(reports == [LayoutReport(.names(LayoutNames(layout: "de,us", variant: "nodeadkeys,", options: "grp:alt_shift_toggle")),
                                         origin: "localed")])
        #expect(watcher.current == reports.first)
    }

    @Test func propertiesWithoutALayoutReportNothing() {
        #expect(LocaledLayoutWatcher.report(["X11Layout": .string(""), "X11Model": .string("pc105")]) == nil)
        #expect(LocaledLayoutWatcher.report(["X11Layout": .string("fr"), "X11Variant": .string("azerty")])
                == LayoutReport(.names(LayoutNames(layout: "fr", variant: "azerty")), origin: "localed"))
        #expect(LocaledLayoutWatcher.report(["X11Layout": .string("de;rm -rf")]) == nil)
    }
}
