import EventLoop
import Glibc
import Logging
import TestKit
import Testing
@testable import TapBLE
@testable import TapUinput

/// The daemon's routing in process: a real loop, a real private bus as its system bus, real
/// keymap files, the frame writer into a ``RecordingSink``, and ``FakeTapSource`` at the BLE
/// seam. (The same daemon against the real bluetoothd and uinput: Tests/e2e.)
@Suite(.serialized) struct DaemonTests {
    final class Harness {
        let bus: PrivateBus
        let dir: String
        let sink = RecordingSink()
        let devices = FakeTapSource()
        let clock = VirtualClock()
        let daemon: Daemon
        var loop: EventLoop { daemon.loop }

        static let mainKeymap = """
            name = "main"
            [layers.base]
            "x...." = "a"
            ".x..." = "vibrate(100,50)"
            "..x.." = "drag-lock"
            "...x." = "input-mode(text)"
            "....x" = "xr-state(tapping)"
            "xx..." = { tap = "c", double = "d" }
            """

        /// - Parameter control: offer the control interface on the private bus (as the session bus).
        /// - Parameter configure: last changes to the daemon's options (notification timings).
        /// - Parameter bus: a bus with peers already on it (a notification server that must see
        ///   the daemon's start); a new one by default.
        init(files: [String: String] = ["keymap.toml": Harness.mainKeymap], control: Bool = false,
             bus: PrivateBus? = nil, configure: (inout Daemon.Options) -> Void = { _ in }) throws {
            self.bus = try bus ?? PrivateBus()
            dir = try makeTemporaryDirectory("daemon")
            mkdir(dir + "/tapuinput", 0o700)
            for (name, text) in files { try writeFile("\(dir)/tapuinput/\(name)", text) }
            var options = Daemon.Options()
            options.systemBus = .address(self.bus.address)
            options.sessionBus = control ? .address(self.bus.address) : nil
            options.configPaths = ConfigPaths(environment: ["XDG_CONFIG_HOME": dir])
            configure(&options)
            let fake = devices
            daemon = try Daemon(options: options, sink: sink, logger: Logger(label: "test"), devices: { _, _ in fake },
                                clock: clock)
            try daemon.start()
            #expect(loop.run(until: { fake.started }, timeoutMilliseconds: 5000))
        }

        /// What the keyboard and pointer devices received, as `KEY_A 1` lines.
        var keys: [String] { sink.lines(for: .keyboard).filter { !$0.hasPrefix("SYN") } }
        var buttons: [String] { sink.lines(for: .pointer).filter { $0.hasPrefix("BTN") } }

        func settle(_ milliseconds: Int = 50) { _ = loop.run(until: { false }, timeoutMilliseconds: milliseconds) }

        deinit {
            bus.stop()
            removeTree(dir)
        }
    }

    @Test func tapsTypeAndADisconnectReleasesWhatTheDeviceHeld() throws {
        let h = try Harness()
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "x....")
        h.devices.tap("AA:01", "..x..")                 // drag-lock: the left button stays down
        h.settle()
        #expect(h.keys == ["KEY_A 1", "KEY_A 0"])
        #expect(h.buttons == ["BTN_LEFT 1"])
        h.devices.disconnect("AA:01")
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
    }

    /// A fast user switch: another user's session becomes active on seat0 (logind's stand-in),
    /// so the held button is released and taps type nothing until ours is active again.
    @Test func anotherUsersSessionReleasesEverythingAndStopsTyping() throws {
        let h = try Harness()
        let logind = try LogindStandIn(bus: h.bus, loop: h.loop, ours: getuid())
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "..x..")                 // drag-lock: the left button stays down
        h.settle()
        #expect(h.buttons == ["BTN_LEFT 1"])
        logind.switchTo("/org/freedesktop/login1/session/c2")
        #expect(h.loop.run(until: { h.buttons.count == 2 }, timeoutMilliseconds: 5000))
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
        h.devices.tap("AA:01", "x....")
        h.settle()
        #expect(h.keys.isEmpty)
        logind.switchTo("/org/freedesktop/login1/session/c1")
        h.settle(300)
        h.devices.tap("AA:01", "x....")
        h.settle()
        #expect(h.keys == ["KEY_A 1", "KEY_A 0"])
    }

    @Test func aDoubleTapOnVirtualTimeAndADisconnectWhileOneIsPending() throws {
        let h = try Harness()
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "xx...")
        h.clock.advance(milliseconds: 100)
        h.devices.tap("AA:01", "xx...")
        #expect(h.keys == ["KEY_D 1", "KEY_D 0"])
        h.devices.tap("AA:01", "xx...")
        #expect(h.clock.armedDeadline != nil)
        h.devices.disconnect("AA:01")          // the pending tap goes with its device: nothing typed
        h.clock.advance(milliseconds: 1000)
        #expect(h.keys == ["KEY_D 1", "KEY_D 0"])
    }

    @Test func anAdapterPoweredOffReleasesEverything() throws {
        let h = try Harness()
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "..x..")
        h.devices.adapterPowered(false)
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
    }

    @Test func keymapDeviceCommandsReachTheTappingDevice() throws {
        let h = try Harness()
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.connect("AA:02", name: "Tap_2")
        h.devices.tap("AA:02", ".x...")
        h.devices.tap("AA:02", "...x.")
        h.devices.tap("AA:01", "....x")
        h.settle()
        #expect(h.devices.commands == ["vibrate [150] AA:01", "vibrate [150] AA:02",    // connect pulses
                                       "vibrate [100, 50] AA:02", "mode text AA:02", "xr tapping AA:01"])
    }

    @Test func aConnectingDevicePulsesUnlessItsKeymapSaysNot() throws {
        let h = try Harness(files: [
            "keymap.toml": Harness.mainKeymap,
            "quiet.toml": "extends = \"keymap.toml\"\nname = \"quiet\"\n[match]\ndevices = [\"Quiet\"]\n[feedback]\nconnect = false\n",
        ])
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.connect("AA:02", name: "Quiet")      // its own keymap turns the pulse off
        h.settle()
        #expect(h.devices.commands == ["vibrate [150] AA:01"])
    }

    @Test func eachDeviceRunsItsOwnKeymap() throws {
        let h = try Harness(files: [
            "keymap.toml": Harness.mainKeymap,
            "left.toml": "extends = \"keymap.toml\"\nname = \"left\"\n[match]\ndevices = [\"Left hand\"]\n[layers.base]\n\"x....\" = \"b\"\n",
        ])
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.connect("AA:02", name: "Left hand")
        h.devices.tap("AA:01", "x....")
        h.devices.tap("AA:02", "x....")
        h.settle()
        #expect(h.keys == ["KEY_A 1", "KEY_A 0", "KEY_B 1", "KEY_B 0"])
        #expect(h.daemon.controlStatus().devices.map(\.keymap) == ["main", "left"])
    }

    @Test func controlRequestsReachTheDevicesAndTheLayout() throws {
        let h = try Harness(control: true)
        h.devices.connect("AA:01", name: "Tap_1")
        let client = try ControlClient(bus: .address(h.bus.address), loop: h.loop)
        try client.vibrate(device: "Tap_1", durationsMs: [200])
        try client.setMode(device: "", mode: "controller")
        #expect(throws: ControlClientError.self) { try client.vibrate(device: "Tap_9", durationsMs: [200]) }
        #expect(h.devices.commands == ["vibrate [150] AA:01", "vibrate [200] AA:01", "mode controller *"])
        try client.setLayout(origin: "gnome", layout: "fr+azerty")
        #expect(h.loop.run(until: { h.daemon.controlStatus().layout == "fr(azerty)" }, timeoutMilliseconds: 5000))
        let status = try client.status()
        #expect(status.layoutOrigin == "gnome")
        #expect(status.devices.map(\.name) == ["Tap_1"])
    }

    @Test func shutdownReleasesRestoresTextModeAndTypesNothingMore() throws {
        let h = try Harness()
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "..x..")
        h.daemon.shutdown()
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
        #expect(h.devices.commands == ["vibrate [150] AA:01", "stop text"])   // the connect pulse, then shutdown
        // A tap still in flight while Text mode is written is dropped.
        h.devices.tap("AA:01", "x....")
        h.settle()
        #expect(h.keys.isEmpty)
    }
}
