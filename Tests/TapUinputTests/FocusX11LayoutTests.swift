import ChordMap
import EventLoop
import KeyboardLayout
import Testing
@testable import TapUinput

/// The X11 source's keyboard layout against a real Xvfb: `setxkbmap` and an XKB group lock, as
/// a user's session changes them, reach the source as pushed reports over the focus connection.
@Suite(.serialized) struct FocusX11LayoutTests {
    @Test func followsSetxkbmapAndGroupSwitches() throws {
        let x = try X11Harness()
        try x.setKeyboardLayout(["de", "-variant", "nodeadkeys"])
        let loop = try EventLoop()
        let source = X11FocusSource(display: x.display, retry: nil)
        var layouts: [LayoutReport] = []
        source.onLayoutChange = { layouts.append($0) }
        try source.start(on: loop) { _ in }
        defer { source.stop() }

        #expect(loop.run(until: { layouts.count >= 1 }, timeoutMilliseconds: 10_000))
        #expect(layouts.first == LayoutReport(.names(LayoutNames(layout: "de", variant: "nodeadkeys")), origin: "x11"))

        try x.setKeyboardLayout(["fr"])
        #expect(loop.run(until: { layouts.count >= 2 }, timeoutMilliseconds: 10_000))
        #expect(layouts.last?.description == .names(LayoutNames(layout: "fr")))

        try x.setKeyboardLayout(["-layout", "us,ru", "-option", "grp:alt_shift_toggle"])
        #expect(loop.run(until: { layouts.count >= 3 }, timeoutMilliseconds: 10_000))
        #expect(layouts.last == LayoutReport(.names(LayoutNames(layout: "us,ru", options: "grp:alt_shift_toggle")),
                                             group: 0, origin: "x11"))
        x.lockGroup(1)
        #expect(loop.run(until: { layouts.count >= 4 }, timeoutMilliseconds: 10_000))
        #expect(layouts.last?.group == 1)
        #expect(source.currentLayout == layouts.last)

        // Setting the same layout again changes nothing: no report.
        try x.setKeyboardLayout(["-layout", "us,ru", "-option", "", "-option", "grp:alt_shift_toggle"])
        _ = loop.run(until: { false }, timeoutMilliseconds: 300)
        #expect(layouts.count == 4)
        // Each report compiles (what the daemon does with it): the Russian group types Cyrillic.
        let russian = try CharacterMap(layout: try #require(layouts.last))
        #expect(russian.strokes["ж"] != nil && russian.strokes["z"] == nil)
    }

    @Test func aSourceWithoutLayoutCallbackSelectsNoXKBEvents() throws {
        let x = try X11Harness()
        let loop = try EventLoop()
        let source = X11FocusSource(display: x.display, retry: nil)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))
        try x.setKeyboardLayout(["de"])
        _ = loop.run(until: { false }, timeoutMilliseconds: 300)
        #expect(source.currentLayout == nil)
        #expect(source.xkb.eventBase == 0)
    }
}
