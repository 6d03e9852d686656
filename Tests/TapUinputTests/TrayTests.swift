import DBus
import EventLoop
import Glibc
import TestKit
import Testing
@testable import TapUinput

/// `tap-uinput tray` on a real private session bus: the real daemon (``Daemon`` with its BLE
/// seam, ``FakeTapSource``) offers its control interface there, a small StatusNotifierWatcher
/// takes the item's registration, and a host connection reads and clicks it over D-Bus.
@Suite(.serialized) struct TrayTests {
    static let mainKeymap = """
        name = "main"
        [layers.base]
        "x...." = "a"
        ".x..." = "lock(shift)"
        "..xxx" = "toggle(numbers)"
        [layers.numbers]
        "x...." = "1"
        "..xxx" = "toggle(numbers)"
        """

    final class Harness {
        let daemon: DaemonTests.Harness
        let watcher: TestStatusNotifierWatcher
        let tray: Tray
        let host: TrayHost
        let runtime: String
        var loop: EventLoop { daemon.loop }

        init(opener: [String] = ["true"], runtimeDirectory: Bool = true) throws {
            daemon = try DaemonTests.Harness(files: [
                "keymap.toml": TrayTests.mainKeymap,
                "web.toml": KeymapFixtureDirectory.keymap(name: "web", apps: ["firefox"]),
            ], control: true)
            runtime = try makeTemporaryDirectory("tray-runtime")
            watcher = try TestStatusNotifierWatcher(address: daemon.bus.address, loop: daemon.loop)
            tray = try Tray(options: trayOptions(address: daemon.bus.address, runtimeDirectory: runtimeDirectory ? runtime : nil,
                                                 opener: opener), loop: daemon.loop)
            host = try TrayHost(address: daemon.bus.address, loop: daemon.loop, tray: tray)
            tray.start()
            let (t, w, l) = (tray, watcher, daemon.loop)
            let registered = l.run(until: { w.registered(t) }, timeoutMilliseconds: 5000)
            let ready = l.run(until: { t.state.status.keymap == "main" }, timeoutMilliseconds: 5000)
            #expect(registered)
            #expect(ready)
        }

        /// Runs the loop until `condition` holds (false after 5 s).
        func wait(_ condition: () -> Bool) -> Bool { eventually(loop, condition) }

        deinit {
            host.close()
            tray.stop()
            watcher.close()
            removeTree(runtime)
        }
    }

    @Test func registersWithTheWatcherAndShowsTheDaemonInItsProperties() throws {
        let h = try Harness()
        let p = h.host.properties()
        #expect(p["Category"]?.string == "Hardware")
        #expect(p["Id"]?.string == "tap-uinput")
        #expect(p["Title"]?.string == "TapUinput: main")
        #expect(p["Status"]?.string == "Passive")          // no TAP connected
        #expect(p["IconName"]?.string == "input-keyboard")
        #expect(p["ItemIsMenu"]?.bool == true)
        #expect(p["Menu"] == .objectPath(Tray.menuPath))
        #expect(h.host.toolTip().contains("no TAP connected"))

        h.daemon.devices.connect("AA:01", name: "Tap_1")
        h.daemon.devices.devices[0].battery = 87
        #expect(h.wait { h.host.properties()["Status"]?.string == "Active" })
        #expect(h.host.toolTip() == "keymap: main\nTap_1: battery 87%, layer base")
        #expect(h.host.itemSignals.contains("NewStatus"))

        // A battery running low turns the icon into a warning (and says so with NewIcon).
        h.daemon.devices.devices[0].battery = 12
        h.daemon.devices.tap("AA:01", "x....")               // taps bring a fresh status
        #expect(h.wait { h.host.properties()["IconName"]?.string == "battery-caution" })
        #expect(h.host.itemSignals.contains("NewIcon"))

        h.daemon.devices.disconnect("AA:01")
        #expect(h.wait { h.host.properties()["Status"]?.string == "Passive" })
        #expect(h.host.toolTip().contains("Tap_1: not connected"))
    }

    @Test func theMenuListsTheKeymapsAndTheDevices() throws {
        let h = try Harness()
        h.daemon.devices.connect("AA:01", name: "Tap_1")
        #expect(h.wait { h.host.menu().contains { $0.label == "Find Tap__1 (vibrate)" } })
        let menu = h.host.menu()
        let labels = menu.map(\.label)
        #expect(labels.contains("Reload keymaps"))
        #expect(labels.contains("Open cheat sheet"))
        #expect(labels.contains("Quit tray"))
        let keymap = try #require(menu.first { $0.label == "Keymap: main" })
        #expect(keymap.props["children-display"]?.string == "submenu")
        let choices = menu.filter { $0.depth == 2 }
        #expect(choices.map(\.label) == ["Automatic (by application)", "main (keymap.toml)", "web (web.toml)"])
        #expect(choices.map { $0.props["toggle-state"]?.int } == [1, 0, 0])
        #expect(choices.allSatisfy { $0.props["toggle-type"]?.string == "radio" })
        let dbusmenu = h.host.call(Tray.menuPath, DBusConnection.propertiesInterface, "GetAll", [.string(DBusMenuObject.interface)])
        #expect((try? dbusmenu.get())?.first?.dictionary?["Version"]?.int == 3)
        // A device that comes later grows the menu and says so.
        h.daemon.devices.connect("AA:02", name: "Tap_2")
        #expect(h.wait { h.host.menu().contains { $0.label == "Find Tap__2 (vibrate)" } })
        #expect(h.host.menuSignals.contains("LayoutUpdated"))
    }

    @Test func menuClicksBecomeDaemonRequests() throws {
        let h = try Harness()
        h.daemon.devices.connect("AA:01", name: "Tap_1")
        #expect(h.wait { h.host.menu().contains { $0.label == "Find Tap__1 (vibrate)" } })

        // Switch keymap -> SetKeymap(web.toml): the daemon runs it, the radio item follows.
        let web = "\(h.daemon.dir)/tapuinput/web.toml"
        #expect(h.host.click("web (web.toml)"))
        #expect(h.wait { h.daemon.daemon.controlStatus().keymapOverride == web })
        #expect(h.wait { h.host.properties()["Title"]?.string == "TapUinput: web" })
        #expect(h.wait { h.host.menu().first { $0.label == "web (web.toml)" }?.props["toggle-state"]?.int == 1 })
        #expect(h.host.menuSignals.contains("ItemsPropertiesUpdated"))   // same items, other checks and labels
        #expect(h.host.click("Automatic (by application)"))
        #expect(h.wait { h.daemon.daemon.controlStatus().keymapOverride == "" })

        // Find it -> Vibrate(AA:01, the find pattern).
        #expect(h.host.click("Find Tap__1 (vibrate)"))
        #expect(h.wait { h.daemon.devices.commands.contains("vibrate \(TrayMenu.findPattern) AA:01") })

        // Reload -> Reload(). A SetKeymap file outside the configuration directory is re-read
        // only by a reload (the daemon's inotify watches the directory), so its new name proves it.
        let outside = "\(h.daemon.dir)/outside.toml"
        try writeFile(outside, KeymapFixtureDirectory.keymap(name: "outside"))
        let client = try ControlClient(bus: .address(h.daemon.bus.address), loop: h.loop)
        try client.setKeymap(path: outside)
        #expect(h.wait { h.tray.state.status.keymap == "outside" })
        try writeFile(outside, KeymapFixtureDirectory.keymap(name: "outside v2"))
        h.daemon.settle(300)
        #expect(h.tray.state.status.keymap == "outside")
        #expect(h.host.click("Reload keymaps"))
        #expect(h.wait { h.host.properties()["Title"]?.string == "TapUinput: outside v2" })

        // A broken file: the reload's error puts the item in NeedsAttention, with the position.
        try writeFile(outside, KeymapFixtureDirectory.broken)
        #expect(h.host.click("Reload keymaps"))
        #expect(h.wait { h.host.properties()["Status"]?.string == "NeedsAttention" })
        #expect(h.host.toolTip().contains("keymap error: \(outside):6:11: error: unknown key name"))
        #expect(h.host.itemSignals.contains("NewStatus"))
        // Fixed and reloaded: attention is over.
        try writeFile(outside, KeymapFixtureDirectory.keymap(name: "outside v3"))
        #expect(h.host.click("Reload keymaps"))
        #expect(h.wait { h.host.properties()["Status"]?.string == "Active" })
        client.connection.close()
    }

    @Test func aLayerChangeUpdatesTheToolTipAndEmitsNewToolTip() throws {
        let h = try Harness()
        h.daemon.devices.connect("AA:01", name: "Tap_1")
        #expect(h.wait { h.host.toolTip().contains("Tap_1: layer base") })
        let before = h.host.itemSignals.filter { $0 == "NewToolTip" }.count
        h.daemon.devices.tap("AA:01", "..xxx")               // toggle(numbers): LayerChanged
        #expect(h.wait { h.host.toolTip().contains("Tap_1: layer numbers") })
        #expect(h.wait { h.host.itemSignals.filter { $0 == "NewToolTip" }.count > before })
        // Locks have no signal of their own: the tap brings a status refresh that shows them.
        h.daemon.devices.tap("AA:01", "..xxx")
        h.daemon.devices.tap("AA:01", ".x...")               // lock(shift)
        #expect(h.wait { h.host.toolTip().contains("Tap_1: layer base, locked shift") })
    }

    @Test func theCheatSheetIsWrittenAndOpenedAsAnArgvWithoutAShell() throws {
        let out = try makeTemporaryDirectory("tray-opened")
        defer { removeTree(out) }
        // cp -t DIR FILE: the "viewer" copies the page where the test can read it.
        let h = try Harness(opener: ["cp", "-t", out])
        #expect(h.host.click("Open cheat sheet"))
        let page = "\(h.runtime)/tapuinput-cheatsheet.html"
        #expect(h.wait { fileExists(page) })
        #expect(h.wait { fileExists("\(out)/tapuinput-cheatsheet.html") })
        let html = readFile("\(out)/tapuinput-cheatsheet.html")
        #expect(html.contains("<html") && html.contains("<svg"))
        #expect(html.contains("numbers"))                    // the active keymap's layer, not the built-in's
        #expect(!h.host.toolTip().contains("cheat sheet"))
    }

    @Test func aCheatSheetThatCannotBeWrittenSaysWhyInTheToolTip() throws {
        let h = try Harness(runtimeDirectory: false)
        #expect(h.host.click("Open cheat sheet"))
        #expect(h.wait { h.host.toolTip().contains("no XDG_RUNTIME_DIR to write the cheat sheet to") })
    }

    @Test func badMenuRequestsGetErrorsAndTheTrayKeepsAnswering() throws {
        let h = try Harness()
        let menu = DBusMenuObject.interface
        let unknownClick = h.host.call(Tray.menuPath, menu, "Event", [.int32(9999), .string("clicked"), .variant(.int32(0)), .uint32(0)])
        #expect(unknownClick.failureName == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(h.host.call(Tray.menuPath, menu, "GetLayout", [.int32(-5), .int32(-1), .strings([])]).failureName
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(h.host.call(Tray.menuPath, menu, "Event", [.string("clicked")]).failureName == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(h.host.call(Tray.menuPath, menu, "GetProperty", [.int32(0), .string("nonsense")]).failureName
                == "org.freedesktop.DBus.Error.InvalidArgs")
        let group = h.host.call(Tray.menuPath, menu, "EventGroup", [.array(elementSignature: "(isvu)", [
            .structure([.int32(4242), .string("clicked"), .variant(.int32(0)), .uint32(0)]),
        ])])
        #expect((try? group.get())?.first?.array == [.int32(4242)])
        #expect(h.host.call(StatusNotifierItemObject.path, StatusNotifierItemObject.interface, "Activate",
                            [.int32(0), .int32(0)]).failureName == nil)
        #expect(h.host.properties()["Id"]?.string == "tap-uinput")
    }

    /// The daemon restarting (NameOwnerChanged) and the watcher restarting, on the control
    /// service alone (``ControlHarness``: the real service with a stand-in daemon behind it).
    @Test func followsTheDaemonAndTheWatcherAcrossRestarts() throws {
        let c = try ControlHarness()
        defer { c.stop() }
        c.service.close()
        c.serviceConnection.close()                          // no daemon yet
        let tray = try Tray(options: trayOptions(address: c.bus.address, runtimeDirectory: nil), loop: c.loop)
        defer { tray.stop() }
        let host = try TrayHost(address: c.bus.address, loop: c.loop, tray: tray)
        defer { host.close() }
        tray.start()
        c.settle(200)
        #expect(tray.registrations == 0)                     // no watcher: nothing to register with
        #expect(host.properties()["Title"]?.string == "TapUinput (not running)")
        #expect(host.menu().first { $0.label == "Reload keymaps" }?.props["enabled"] == .bool(false))

        var connection = try DBusConnection(bus: .address(c.bus.address), loop: c.loop)
        var service = try ControlService(connection: connection, handler: c.daemon)
        #expect(eventually(c.loop) { host.properties()["Title"]?.string == "TapUinput: main" })
        #expect(host.menu().first { $0.label == "Reload keymaps" }?.props["enabled"] == nil)   // enabled: the default

        service.close()
        connection.close()                                   // the daemon stops...
        #expect(eventually(c.loop) { host.properties()["Title"]?.string == "TapUinput (not running)" })
        connection = try DBusConnection(bus: .address(c.bus.address), loop: c.loop)
        service = try ControlService(connection: connection, handler: c.daemon)   // ...and comes back
        #expect(eventually(c.loop) { host.properties()["Title"]?.string == "TapUinput: main" })

        let first = try TestStatusNotifierWatcher(address: c.bus.address, loop: c.loop)
        #expect(eventually(c.loop) { first.registered(tray) })
        first.close()                                        // the panel restarts
        let second = try TestStatusNotifierWatcher(address: c.bus.address, loop: c.loop)
        defer { second.close() }
        #expect(eventually(c.loop) { second.registered(tray) })
        #expect(eventually(c.loop) { tray.registrations == 2 })
        service.close()
        connection.close()
    }

    @Test func presentationPicksStatusAndIconFromTheState() {
        var s = TrayState()
        #expect(s.presentation.status == .passive)
        #expect(s.presentation.title == "TapUinput (not running)")
        s.daemonRunning = true
        s.status.keymap = "main"
        s.status.devices = [ControlStatus.Device(id: "AA:01", name: "Tap_1", connected: true, battery: 15,
                                                 lockedModifiers: ["KEY_LEFTSHIFT"], role: "left")]
        #expect(s.presentation.status == .active)
        #expect(s.presentation.iconName == "input-keyboard")   // the daemon's default: below 15 % is low
        #expect(s.presentation.toolTipText == "keymap: main\nTap_1: left hand, battery 15%, layer base, locked shift")
        s.status.batteryLowPercent = 16                          // `run --battery-low 16`
        #expect(s.presentation.iconName == "battery-caution")
        s.status.keymapErrors = ["/c/web.toml:1:1: error: x\n   1 | y"]
        #expect(s.presentation.status == .needsAttention)
        #expect(s.presentation.toolTipText.hasSuffix("keymap error: /c/web.toml:1:1: error: x"))
    }
}

extension Result where Failure == DBusError {
    /// The D-Bus error name of a failed call; nil when it succeeded.
    var failureName: String? { if case .failure(let e) = self { e.name } else { nil } }
}
