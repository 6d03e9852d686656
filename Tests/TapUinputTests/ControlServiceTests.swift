import ChordMap
import DBus
import EventLoop
import Glibc
import TapBLE
import TestKit
import Testing
@testable import TapUinput

/// ``ControlService`` and ``ControlClient`` over a real private dbus-daemon, with a test double
/// of the daemon at the ``ControlHandler`` seam.
@Suite struct ControlServiceTests {
    @Test func statusRoundTripsEveryField() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        h.daemon.status = ControlStatus(
            version: "0.1.0",
            devices: [
                ControlStatus.Device(id: "AA:BB:CC:DD:EE:01", name: "Tap_D458260", connected: true, battery: 87,
                                     hardwareVersion: "3.0.0", firmwareVersion: "2.3.31", mode: "controller",
                                     layer: "numbers", oneShotModifiers: ["KEY_LEFTSHIFT"],
                                     lockedModifiers: ["KEY_LEFTCTRL"], keymap: "web", keymapFile: "/x/web.toml",
                                     role: "left"),
                ControlStatus.Device(id: "AA:BB:CC:DD:EE:02", name: "", connected: false),
            ],
            focusSources: ["sway", "dbus"], layout: "de(nodeadkeys)", layoutOrigin: "x11", batteryLowPercent: 25)
        try h.client.setFocus(appID: "firefox", title: "Mozilla Firefox")

        let status = try h.client.status()
        var expected = h.daemon.status
        expected.keymap = "web"
        expected.keymapFile = h.keymaps.file("web.toml")
        expected.focusApp = "firefox"
        expected.focusTitle = "Mozilla Firefox"
        expected.focusSource = "dbus"
        expected.keymaps = [h.keymaps.file("keymap.toml"): "main", h.keymaps.file("web.toml"): "web"]
        #expect(status == expected)
        #expect(status.devices[1].battery == nil)
        #expect(h.client.isDaemonRunning())
    }

    @Test func statusIsFilledFromTheSelectorAndTheEngine() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        try h.keymaps.write("bad.toml", KeymapFixtureDirectory.broken)
        #expect(throws: KeymapError.self) { try h.daemon.selector.reload() }
        try h.daemon.selector.setOverride(path: "web.toml")
        var engine = Engine(keymap: h.daemon.selector.active.keymap, characters: .empty)
        _ = engine.step(.tap(ChordTap(device: "AA:01", chord: Chord(spelling: "xxx..")!)), at: EngineTime(nanoseconds: 1))
        _ = engine.timeout(at: .milliseconds(1000))   // Shift has a double tap: resolve it as a single
        var device = ControlStatus.Device(id: "AA:01", name: "Tap_1", connected: true)
        device.fill(engine: engine.status(of: "AA:01"), keymap: h.daemon.selector.plan.keymap(for: "AA:01"))
        h.daemon.status.devices = [device]

        let status = try h.client.status()
        #expect(status.keymap == "web")
        #expect(status.keymapOverride == h.keymaps.file("web.toml"))
        #expect(status.keymapErrors.count == 1)
        #expect(status.keymapErrors.first?.hasPrefix("\(h.keymaps.file("bad.toml")):6:11: error:") == true)
        #expect(status.devices.first?.layer == "base")
        #expect(status.devices.first?.keymap == "web")
        #expect(status.devices.first?.oneShotModifiers == ["KEY_LEFTSHIFT"])   // xxx.. is Shift
        #expect(ControlText.status(status).contains("one-shot shift"))
    }

    @Test func reloadAppliesAValidChangeAndFailsWithDiagnosticsForABrokenOne() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        try h.keymaps.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main v2"))
        try h.client.reload()
        #expect(try h.client.status().keymap == "main v2")

        try h.keymaps.write("keymap.toml", KeymapFixtureDirectory.broken)
        #expect {
            try h.client.reload()
        } throws: { error in
            guard case ControlClientError.failed(let name, let message) = error else { return false }
            return name == "org.tapuinput.Error.InvalidKeymap"
                && message.contains("\(h.keymaps.file("keymap.toml")):6:11: error: unknown key name \"entr\"")
        }
        #expect(try h.client.status().keymap == "main v2")   // the running keymap stays
    }

    @Test func setKeymapOverridesAndEmptyReturnsToAutomatic() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        try h.client.setKeymap(path: h.keymaps.file("web.toml"))
        #expect(try h.client.status().keymap == "web")
        #expect(h.daemon.selector.overridePath == h.keymaps.file("web.toml"))
        #expect {
            try h.client.setKeymap(path: "/nonexistent/keymap.toml")
        } throws: { error in
            guard case ControlClientError.failed(let name, let message) = error else { return false }
            return name == "org.tapuinput.Error.InvalidKeymap" && message.contains("cannot read keymap file")
        }
        try h.client.setKeymap(path: "")
        #expect(try h.client.status().keymap == "main")
    }

    @Test func setLayoutTakesXKBNamesAndGNOMEInputSourceIDs() throws {
        let h = try ControlHarness()
        try h.client.setLayout(origin: "gnome", layout: "fr+azerty")
        try h.client.setLayout(origin: "gnome", layout: "de(nodeadkeys)")
        try h.client.setLayout(origin: "kde", layout: "")
        for (origin, layout) in [("gnome", "de;ls"), ("", "de"), ("gnome shell", "de"), (String(repeating: "x", count: 33), "de")] {
            #expect(throws: ControlClientError.self) { try h.client.setLayout(origin: origin, layout: layout) }
        }
        #expect(h.daemon.layouts == ["gnome fr(azerty)", "gnome de(nodeadkeys)", "kde -"])
    }

    @Test func setFocusFeedsTheSelectionThroughThePushedSource() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        try h.client.setFocus(appID: "firefox", title: "")
        #expect(h.daemon.selector.active.keymap.name == "web")
        try h.client.setFocus(appID: "foot", title: "~")
        #expect(h.daemon.selector.active.keymap.name == "main")
        #expect(h.daemon.selector.focus == FocusInfo(appID: "foot", title: "~", source: "dbus"))
    }

    @Test func deviceRequestsAreCheckedAndAnsweredLater() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        h.daemon.answerLaterOn = h.loop
        try h.client.vibrate(device: "AA:BB:CC:DD:EE:01", durationsMs: [100, 50, 100])
        try h.client.setMode(device: "", mode: "text")
        #expect(h.daemon.vibrations.map(\.durations) == [[100, 50, 100]])
        #expect(h.daemon.modes.map(\.mode) == ["text"])

        func failure(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch let e as ControlClientError {
                if case .failed(let name, _) = e { return name }
                return "\(e)"
            } catch { return "\(error)" }
        }
        #expect(failure { try h.client.vibrate(device: "", durationsMs: [5]) } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(failure { try h.client.vibrate(device: "", durationsMs: [3000]) } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(failure { try h.client.vibrate(device: "", durationsMs: []) } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(failure { try h.client.vibrate(device: "", durationsMs: Array(repeating: 100, count: 19)) }
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(failure { try h.client.vibrate(device: "nope", durationsMs: [100]) } == "org.tapuinput.Error.UnknownDevice")
        #expect(failure { try h.client.setMode(device: "", mode: "") } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(failure { try h.client.setMode(device: "", mode: "warp") } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(h.daemon.vibrations.count == 1)   // nothing invalid reached the device
        #expect(h.daemon.modes.count == 1)
    }

    @Test func wrongArgumentTypesAndUnknownMethodsGetErrorsNotCrashes() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        func errorName(_ r: DBusReply) -> String? { if case .failure(let e) = r { e.name } else { nil } }
        #expect(errorName(h.rawCall("SetFocus", [.string("only one")])) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(errorName(h.rawCall("SetFocus", [.int32(1), .int32(2)])) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(errorName(h.rawCall("Vibrate", [.string(""), .strings(["100"])])) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(errorName(h.rawCall("SetKeymap", [])) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(errorName(h.rawCall("SelfDestruct", [])) == "org.freedesktop.DBus.Error.UnknownMethod")
        // Still serving.
        #expect(try h.client.status().keymap == "main")
    }

    @Test func introspectionListsEveryMethodAndSignal() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        var xml: String?
        h.client.connection.call(.methodCall(destination: ControlInterface.busName, path: ControlInterface.objectPath,
                                             interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")) {
            xml = (try? $0.get())?.first?.string
        }
        #expect(h.loop.run(until: { xml != nil }, timeoutMilliseconds: 3000))
        let text = try #require(xml)
        for name in ["Status", "Reload", "SetKeymap", "SetFocus", "Vibrate", "SetMode", "WatchTaps", "UnwatchTaps"] {
            #expect(text.contains("<method name=\"\(name)\">"))
        }
        for name in ControlInterface.signals.keys { #expect(text.contains("<signal name=\"\(name)\">")) }
        #expect(text.contains("<method name=\"SetFocus\"><arg type=\"s\" direction=\"in\"/><arg type=\"s\" direction=\"in\"/></method>"))
    }

    @Test func aSecondDaemonCannotTakeTheName() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let other = try DBusConnection(bus: .address(h.bus.address), loop: h.loop)
        defer { other.close() }
        #expect(throws: DBusError.self) { try ControlService(connection: other, handler: h.daemon) }
        #expect(try h.client.status().keymap == "main")   // the first one still answers
    }

    @Test func noDaemonIsReportedClearly() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let client = try ControlClient(bus: .address(bus.address), loop: loop)
        #expect(!client.isDaemonRunning())
        #expect(throws: ControlClientError.notRunning) { try client.status() }
        #expect(ControlClientError.notRunning.description.contains("systemctl --user start tap-uinput"))
        #expect(throws: ControlClientError.self) {
            try ControlClient(bus: .address("unix:path=/nonexistent/bus"), loop: loop)
        }
    }

    @Test func aHandlerThatIsGoneFailsRequestsCleanly() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let keymaps = try KeymapFixtureDirectory()
        defer { keymaps.remove() }
        let connection = try DBusConnection(bus: .address(bus.address), loop: loop)
        var daemon: FakeDaemon? = try FakeDaemon(keymapDirectory: keymaps.path, loop: loop)
        let service = try ControlService(connection: connection, handler: daemon!)
        _ = service
        daemon = nil
        let client = try ControlClient(bus: .address(bus.address), loop: loop)
        #expect(throws: ControlClientError.failed(name: "org.tapuinput.Error.Failed", message: "the daemon is shutting down")) {
            try client.status()
        }
    }
}
