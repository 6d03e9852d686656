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
            """

        init(files: [String: String] = ["keymap.toml": Harness.mainKeymap]) throws {
            bus = try PrivateBus()
            dir = try makeTemporaryDirectory("daemon")
            mkdir(dir + "/tapuinput", 0o700)
            for (name, text) in files { try writeFile("\(dir)/tapuinput/\(name)", text) }
            var options = Daemon.Options()
            options.systemBus = .address(bus.address)
            options.sessionBus = nil
            options.configPaths = ConfigPaths(environment: ["XDG_CONFIG_HOME": dir])
            let fake = devices
            daemon = try Daemon(options: options, sink: sink, logger: Logger(label: "test"), devices: { _, _ in fake })
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
        #expect(h.devices.commands == ["vibrate [100, 50] AA:02", "mode text AA:02", "xr tapping AA:01"])
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

    @Test func shutdownReleasesRestoresTextModeAndTypesNothingMore() throws {
        let h = try Harness()
        h.devices.connect("AA:01", name: "Tap_1")
        h.devices.tap("AA:01", "..x..")
        h.daemon.shutdown()
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
        #expect(h.devices.commands == ["stop text"])
        // A tap still in flight while Text mode is written is dropped.
        h.devices.tap("AA:01", "x....")
        h.settle()
        #expect(h.keys.isEmpty)
    }
}
