import DBus
import EventLoop
import Glibc
import TestKit
import Testing
@testable import TapUinput

/// The daemon's desktop notifications end to end: the real daemon (``DaemonTests/Harness``:
/// real loop, fake BLE side) sends them on a real private session bus to a real notification
/// server, dunst (``DunstServer``), and the test reads back what dunst showed.
@Suite(.serialized) struct NotificationDaemonTests {
    /// Short intervals so the rate limit is seen within a test: one per kind and device every
    /// 800 ms, batteries read every 100 ms; low below 16 % (`--battery-low 16`, not the default).
    static func fast(_ o: inout Daemon.Options) {
        o.notifications.perKeyMilliseconds = 800
        o.notifications.batteryCheckMilliseconds = 100
        o.notifications.batteryLowPercent = 16
    }

    @Test func connectsAreShownAndABurstIsCoalescedIntoItsLastState() throws {
        let h = try DaemonTests.Harness(control: true, configure: Self.fast)
        let dunst = try DunstServer(busAddress: h.bus.address, loop: h.loop)
        defer { dunst.stop() }
        let notifier = try #require(h.daemon.notifications?.notifier)

        h.devices.connect("AA:01", name: "Tap_1")
        #expect(h.loop.run(until: { (try? dunst.shown().count) == 1 }, timeoutMilliseconds: 5000))
        let first = try dunst.shown()
        #expect(first.map(\.summary) == ["TAP connected"])
        #expect(first.map(\.body) == ["Tap_1 (AA:01) is ready"])

        // Within the 800 ms: a drop and a reconnect. Nothing more goes out now...
        h.devices.disconnect("AA:01")
        h.devices.connect("AA:01", name: "Tap_1")
        h.settle(300)
        #expect(notifier.sent == 1)
        // ...then one notification with the last state, replacing the first (same id).
        #expect(h.loop.run(until: { notifier.sent == 2 }, timeoutMilliseconds: 3000))
        h.settle(200)
        let all = try dunst.shown()
        #expect(all.map(\.summary) == ["TAP connected", "TAP connected"])
        #expect(!all.contains { $0.summary == "TAP disconnected" })
        #expect(all.first?.id == first.first?.id)

        // A disconnect after the interval is shown as it is.
        h.devices.disconnect("AA:01", reason: "link lost")
        #expect(h.loop.run(until: { (try? dunst.shown().first?.summary) == "TAP disconnected" }, timeoutMilliseconds: 5000))
        #expect(try dunst.shown().first?.body == "Tap_1 (AA:01): link lost")
    }

    @Test func batteryLowOncePerCrossing() throws {
        let h = try DaemonTests.Harness(control: true, configure: Self.fast)
        let dunst = try DunstServer(busAddress: h.bus.address, loop: h.loop)
        defer { dunst.stop() }
        let notifier = try #require(h.daemon.notifications?.notifier)
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.setBattery("AA:01", 40)
        h.settle(300)
        #expect(notifier.sent == 1)   // connected only
        // The tray and `monitor --json` read the threshold from Status().
        #expect(h.daemon.controlStatus().batteryLowPercent == 16)

        h.devices.setBattery("AA:01", 12)
        #expect(h.loop.run(until: { (try? dunst.shown().first?.summary) == "TAP battery low" }, timeoutMilliseconds: 5000))
        #expect(try dunst.shown().first?.body == "Tap_1 (AA:01): 12 % left; charge it soon")
        // Lower readings and a wobble to 15 (below the re-arm level, 21) are the same crossing.
        for level in [11, 15, 10] {
            h.devices.setBattery("AA:01", level)
            h.settle(250)
        }
        #expect(notifier.sent == 2)
        // Charged to 30, then low again: a new crossing.
        h.devices.setBattery("AA:01", 30)
        h.settle(250)
        h.devices.setBattery("AA:01", 9)
        #expect(h.loop.run(until: { notifier.sent == 3 }, timeoutMilliseconds: 3000))
        h.settle(200)
        #expect(try dunst.shown().filter { $0.summary == "TAP battery low" }.first?.body == "Tap_1 (AA:01): 9 % left; charge it soon")
    }

    @Test func aKeymapThatFailsToLoadIsShownWithItsPosition() throws {
        let h = try DaemonTests.Harness(control: true, configure: Self.fast)
        let dunst = try DunstServer(busAddress: h.bus.address, loop: h.loop)
        defer { dunst.stop() }
        // Saved by an editor: the file watcher reloads and finds the error.
        try writeFile("\(h.dir)/tapuinput/web.toml", "name = \"web\"\n[layers.base]\n\"x....\" = \"entr\"\n")
        #expect(h.loop.run(until: { (try? dunst.shown().first?.summary) == "TapUinput: keymap error" }, timeoutMilliseconds: 5000))
        let body = try dunst.shown().first?.body ?? ""
        #expect(body.hasPrefix("\(h.dir)/tapuinput/web.toml:3:11: unknown key name"))
        #expect(body.hasSuffix("the file keeps its last good version; `tap-uinput check` shows all"))
    }

    @Test func aKeymapBrokenBeforeTheStartIsShownAtTheStart() throws {
        let bus = try PrivateBus()
        let dunstLoop = try EventLoop()
        let dunst = try DunstServer(busAddress: bus.address, loop: dunstLoop)
        defer { dunst.stop() }
        let broken = "name = \"web\"\n[layers.base]\n\"x....\" = \"entr\"\n"
        let h = try DaemonTests.Harness(files: ["keymap.toml": DaemonTests.Harness.mainKeymap, "web.toml": broken],
                                        control: true, bus: bus, configure: Self.fast)
        #expect(h.loop.run(until: { (try? dunst.shown().first?.summary) == "TapUinput: keymap error" }, timeoutMilliseconds: 5000))
        #expect(try dunst.shown().first?.body.hasPrefix("\(h.dir)/tapuinput/web.toml:3:11: unknown key name") == true)
    }

    @Test func noNotificationsSendsNothing() throws {
        let h = try DaemonTests.Harness(control: true) { $0.notifications.enabled = false }
        let dunst = try DunstServer(busAddress: h.bus.address, loop: h.loop)
        defer { dunst.stop() }
        #expect(h.daemon.notifications == nil)
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.setBattery("AA:01", 5)
        h.devices.disconnect("AA:01")
        h.settle(500)
        #expect(try dunst.shown().isEmpty)
    }

    /// A notification server that owns the name but never answers (its connection is never
    /// dispatched): typing goes on, nothing waits for it.
    @Test func aHungServerDoesNotStallTyping() throws {
        let h = try DaemonTests.Harness(control: true, configure: Self.fast)
        let otherLoop = try EventLoop()
        let hung = try DBusConnection(bus: .address(h.bus.address), loop: otherLoop)
        try hung.requestName(DesktopNotifier.busName)
        defer { hung.close() }
        h.devices.connect("AA:01", name: "Tap_1")
        let start = MonotonicInstant.now()
        h.devices.tap("AA:01", "x....")
        h.settle(100)
        #expect(h.keys == ["KEY_A 1", "KEY_A 0"])
        #expect(MonotonicInstant.now().nanoseconds(since: start) < 1_000_000_000)
        #expect(h.daemon.notifications?.notifier.sent == 1)
    }

    /// No server at all: the daemon carries on (the failure is logged once, at debug level).
    @Test func noServerIsNoProblem() throws {
        let h = try DaemonTests.Harness(control: true, configure: Self.fast)
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "x....")
        h.settle(200)
        #expect(h.keys == ["KEY_A 1", "KEY_A 0"])
        #expect(h.daemon.notifications?.notifier.sent == 1)
    }
}
