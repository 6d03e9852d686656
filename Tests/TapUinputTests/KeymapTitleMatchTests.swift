import ChordMap
import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// `[match] titles` and glob patterns in the catalog's selection, and title changes from a
/// real focus source (X11 under Xvfb and openbox) switching the keymap.
@Suite(.serialized) struct KeymapTitleMatchTests {
    static func keymap(_ name: String, apps: [String] = [], titles: [String] = [], devices: [String] = []) -> String {
        func list(_ key: String, _ v: [String]) -> String {
            v.isEmpty ? "" : "\(key) = [" + v.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n"
        }
        return "extends = \"builtin\"\nname = \"\(name)\"\n[match]\n" + list("apps", apps) + list("titles", titles)
            + list("devices", devices) + "[layers.base]\n\"x....\" = \"b\"\n"
    }

    @Test func precedenceTitlesThenAppsThenDevices() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main"))
        try dir.write("a.toml", Self.keymap("browser", apps: ["*chromium*", "firefox"]))
        try dir.write("b.toml", Self.keymap("youtube", titles: ["*YouTube*"]))
        try dir.write("c.toml", Self.keymap("youtube in chromium", apps: ["*chromium*"], titles: ["*YouTube*"]))
        try dir.write("d.toml", Self.keymap("youtube on the left", titles: ["*youtube*"], devices: ["Left*"]))
        try dir.write("e.toml", Self.keymap("all three", apps: ["firefox"], titles: ["*YouTube*"], devices: ["Left Tap"]))
        try dir.write("f.toml", Self.keymap("browser on the left", apps: ["firefox"], devices: ["Left Tap"]))
        var c = KeymapCatalog(directory: dir.path)
        #expect(c.reload().isEmpty)
        let left = ["AA:01", "Left Tap"]
        func pick(_ app: String, _ title: String, _ device: [String] = []) -> String {
            c.select(app: app, title: title, device: device).keymap.name
        }
        #expect(pick("firefox", "Cats - YouTube", left) == "all three")
        #expect(pick("org.chromium.Chromium", "Cats - YouTube") == "youtube in chromium")
        #expect(pick("org.chromium.Chromium", "Cats - YouTube", left) == "youtube in chromium")   // app+title > title+device
        #expect(pick("foot", "youtube-dl", left) == "youtube on the left")
        #expect(pick("foot", "Cats - YouTube") == "youtube")
        #expect(pick("firefox", "News", left) == "browser on the left")
        #expect(pick("CHROMIUM", "News") == "browser")
        #expect(pick("foot", "News") == "main")
        #expect(pick("", "") == "main")
    }

    @Test func aTitleChangeOfTheFocusedWindowSwitchesTheKeymap() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main"))
        try dir.write("yt.toml", Self.keymap("youtube", apps: ["*browser*"], titles: ["*YouTube*"]))
        var catalog = KeymapCatalog(directory: dir.path)
        catalog.reload()
        let selector = KeymapSelector(catalog: catalog)
        var names: [String] = []
        selector.onChange = { names.append($0.base.keymap.name) }

        let x = try X11Harness()
        let loop = try EventLoop()
        let source = X11FocusSource(display: x.display, retry: nil)
        try source.start(on: loop) { selector.focusChanged($0) }
        defer { source.stop() }
        let w = x.createWindow(instance: "web-browser", class: "Web-browser", title: "News")
        #expect(loop.run(until: { selector.focus.title == "News" }, timeoutMilliseconds: 10_000))
        #expect(names.isEmpty)
        x.setTitle(w, "Cats - YouTube")
        #expect(loop.run(until: { names == ["youtube"] }, timeoutMilliseconds: 10_000))
        x.setTitle(w, "News again")
        #expect(loop.run(until: { names == ["youtube", "main"] }, timeoutMilliseconds: 10_000))
    }

    /// The daemon end to end: titles pushed with `SetFocus` (as the GNOME extension and KWin
    /// script do on every title change) switch the running keymap and what it types.
    @Test func theDaemonSwitchesOnPushedTitles() throws {
        let h = try DaemonTests.Harness(files: ["keymap.toml": DaemonTests.Harness.mainKeymap,
                                                "yt.toml": Self.keymap("youtube", apps: ["*firefox*"], titles: ["*YouTube*"])],
                                        control: true)
        let client = try ControlClient(bus: .address(h.bus.address), loop: h.loop)
        h.devices.connect("AA:01", name: "Tap_1")
        try client.setFocus(appID: "org.mozilla.firefox", title: "Cats - YouTube — Mozilla Firefox")
        #expect(h.loop.run(until: { h.daemon.controlStatus().keymap == "youtube" }, timeoutMilliseconds: 5000))
        h.devices.tap("AA:01", "x....")
        h.settle()
        #expect(h.keys == ["KEY_B 1", "KEY_B 0"])
        try client.setFocus(appID: "org.mozilla.firefox", title: "News — Mozilla Firefox")
        #expect(h.loop.run(until: { h.daemon.controlStatus().keymap == "main" }, timeoutMilliseconds: 5000))
        h.devices.tap("AA:01", "x....")
        h.settle()
        #expect(h.keys == ["KEY_B 1", "KEY_B 0", "KEY_A 1", "KEY_A 0"])
    }
}
