import ChordMap
import Glibc
import Testing
@testable import TapUinput

/// ``KeymapSelector``: focus, devices, reloads and SetKeymap turned into plans, reported only
/// when they change.
@Suite struct KeymapCatalogSelectorTests {
    typealias K = KeymapFixtureDirectory

    private func selector(_ dir: KeymapFixtureDirectory) -> (KeymapSelector, Box) {
        var catalog = KeymapCatalog(directory: dir.path)
        catalog.reload()
        let selector = KeymapSelector(catalog: catalog)
        let box = Box()
        selector.onChange = { box.plans.append($0) }
        selector.onError = { box.errors.append($0) }
        return (selector, box)
    }

    final class Box {
        var plans: [KeymapPlan] = []
        var errors: [KeymapError] = []
    }

    @Test func focusChangesSwitchOnlyWhenTheKeymapDiffers() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", K.keymap(name: "main"))
        try dir.write("web.toml", K.keymap(name: "web", apps: ["firefox", "chromium"]))
        let (s, box) = selector(dir)
        #expect(s.active.keymap.name == "main")

        s.focusChanged(FocusInfo(appID: "firefox", title: "a", source: "test"))
        s.focusChanged(FocusInfo(appID: "firefox", title: "b", source: "test"))   // title only
        s.focusChanged(FocusInfo(appID: "chromium", title: "", source: "test"))   // same keymap
        s.focusChanged(FocusInfo(appID: "foot", title: "", source: "test"))
        s.focusChanged(FocusInfo(appID: "xterm", title: "", source: "test"))      // main again: no change
        #expect(box.plans.map(\.base.keymap.name) == ["web", "main"])
        #expect(box.plans.allSatisfy { $0.perDevice.isEmpty })
        #expect(box.errors.isEmpty)
    }

    @Test func aDeviceKeymapAppliesToThatDeviceOnly() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("left.toml", K.keymap(name: "left", devices: ["Left Tap"]))
        let (s, box) = selector(dir)
        s.deviceConnected(id: "AA:01", name: "Right Tap")
        #expect(box.plans.isEmpty)
        s.deviceConnected(id: "AA:02", name: "Left Tap")
        #expect(box.plans.count == 1)
        #expect(s.plan.base.file == nil)
        #expect(s.plan.perDevice.keys.sorted() == ["AA:02"])
        #expect(s.plan.keymap(for: "AA:02").keymap.name == "left")
        #expect(s.plan.keymap(for: "AA:01").file == nil)
        s.deviceDisconnected(id: "AA:02")
        #expect(box.plans.count == 2)
        #expect(s.plan.perDevice.isEmpty)
    }

    @Test func reloadAppliesValidFilesAndReportsBrokenOnes() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", K.keymap(name: "main v1"))
        let (s, box) = selector(dir)

        try dir.write("keymap.toml", K.keymap(name: "main v2"))
        try s.reload()
        #expect(box.plans.map(\.base.keymap.name) == ["main v2"])

        try dir.write("keymap.toml", K.broken)
        #expect(throws: KeymapError.self) { try s.reload() }
        #expect(box.plans.count == 1)                       // the running keymap stays
        #expect(s.active.keymap.name == "main v2")
        #expect(box.errors.count == 1)
        #expect(box.errors.first?.description.contains("keymap.toml:6:11: error: unknown key name \"entr\"") == true)
        #expect(s.currentError != nil)
        #expect(s.mainKeymapError == nil)                   // it did load once

        #expect(throws: KeymapError.self) { try s.reload() }   // still broken: reported again
        #expect(box.errors.count == 2)
    }

    @Test func setOverrideWinsOverFocusUntilCleared() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("web.toml", K.keymap(name: "web", apps: ["firefox"]))
        try dir.write("plain.toml", K.keymap(name: "plain"))
        try dir.write("bad.toml", K.broken)
        let (s, box) = selector(dir)

        try s.setOverride(path: "plain.toml")                 // relative: in the config directory
        #expect(s.overridePath == dir.file("plain.toml"))
        s.focusChanged(FocusInfo(appID: "firefox", title: "", source: "test"))
        #expect(box.plans.map(\.base.keymap.name) == ["plain"])

        #expect(throws: KeymapError.self) { try s.setOverride(path: dir.file("bad.toml")) }
        #expect(throws: KeymapError.self) { try s.setOverride(path: "/nonexistent/x.toml") }
        #expect(s.active.keymap.name == "plain")

        try s.setOverride(path: "")
        #expect(s.overridePath == nil)
        #expect(box.plans.map(\.base.keymap.name) == ["plain", "web"])
    }

    @Test func aMainKeymapThatNeverLoadedIsReportedForStartup() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", K.broken)
        let (s, _) = selector(dir)
        #expect(s.mainKeymapError?.diagnostics.first?.location.line == 6)
        #expect(s.active.file == nil)   // built-in until it is fixed
    }
}
