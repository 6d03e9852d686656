import ChordMap
import Testing
@testable import TapUinput

/// The text `status` and `monitor` print, and actions described for `Tap` signals.
@Suite struct ControlTextTests {
    /// Parses `text` as a binding of the thumb in a one-line keymap and describes it.
    private func describe(_ text: String) throws -> String {
        let keymap = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \(text)\n", file: "t.toml")
        return ControlText.describe(try #require(keymap.layers[0][Chord(rawValue: 1)!]).tap)
    }

    @Test func actionsAreDescribedInKeymapSyntax() throws {
        #expect(ControlText.describe(.key(KeyCode(name: "a")!, modifiers: [])) == "a")
        #expect(ControlText.describe(.key(KeyCode(name: "t")!, modifiers: [.leftCtrl, .leftShift])) == "ctrl+shift+t")
        #expect(ControlText.describe(.key(.buttonLeft, modifiers: [])) == "click")
        #expect(ControlText.describe(.oneShotModifiers([.leftShift])) == "oneshot(shift)")
        #expect(ControlText.describe(.lockModifiers([.leftCtrl, .rightAlt])) == "lock(ctrl+altgr)")
        #expect(ControlText.describe(.toggleLayer("nav")) == "toggle(nav)")
        #expect(ControlText.describe(.oneShotLayer("nav")) == "layer(nav)")
        #expect(ControlText.describe(.wheel(vertical: -120, horizontal: 0)) == "wheel-down")
        #expect(ControlText.describe(.wheel(vertical: 360, horizontal: 0)) == "wheel(3)")
        #expect(ControlText.describe(.vibrate([100, 50])) == "vibrate(100,50)")
        #expect(ControlText.describe(.none) == "none")
        // Through the real parser, for what keymaps actually produce.
        #expect(try describe("\"ctrl+shift+t\"") == "ctrl+shift+t")
        #expect(try describe("{ text = \"Hi!\" }") == "text(Hi!)")
        #expect(try describe("[\"ctrl+l\", \"ctrl+c\"]") == "[ctrl+l, ctrl+c]")
        #expect(try describe("\"enter\"") == "enter")
    }

    @Test func tapBindingsAreLookedUpLikeTheEngineDoes() throws {
        let keymap = try KeymapLoader.parse(source: """
            [layers.base]
            "x...." = { tap = "a", double = "v" }
            ".x..." = "toggle(nav)"
            "..x.." = "toggle(closed)"
            [layers.nav]
            "..x.." = "up"
            [layers.closed]
            fallthrough = false
            "...x." = "down"
            """, file: "t.toml")
        let thumb = Chord(spelling: "x....")!
        #expect(ControlText.describe(binding: ControlText.binding(of: thumb, inLayer: "base", of: keymap)) == "a | double v")
        #expect(ControlText.describe(binding: ControlText.binding(of: thumb, inLayer: "nav", of: keymap)) == "a | double v")
        #expect(ControlText.describe(binding: ControlText.binding(of: thumb, inLayer: "closed", of: keymap)) == "none")
        #expect(ControlText.describe(binding: ControlText.binding(of: Chord(spelling: "..x..")!, inLayer: "nav", of: keymap)) == "up")
        #expect(ControlText.describe(binding: ControlText.binding(of: Chord(spelling: "....x")!, inLayer: "base", of: keymap)) == "none")
    }

    @Test func monitorLinesShowTheFingerDiagram() {
        let tap = ControlEvent.tap(device: "AA:01", chord: Chord(spelling: "x.x.."), action: "ctrl+t", app: "firefox", layer: "web")
        #expect(ControlText.monitorLine(tap) == "x.x..  ctrl+t            firefox [web]  AA:01")
        #expect(ControlText.monitorLine(.tap(device: "AA:01", chord: nil, action: "", app: "", layer: "base"))
                == "?????  (nothing)         - [base]  AA:01")
        #expect(ControlText.monitorLine(.focusChanged(appID: "", title: "")) == "* focus         nothing")
        #expect(ControlText.monitorLine(.keymapChanged(name: "TapCode", file: "")) == "* keymap        TapCode (built-in)")
    }

    @Test func statusTextNamesKeymapFocusDevicesAndErrors() {
        let s = ControlStatus(
            version: "0.1.0",
            devices: [ControlStatus.Device(id: "AA:01", name: "Tap_1", connected: true, battery: 80, firmwareVersion: "2.3.31",
                                           mode: "controller", layer: "numbers", lockedModifiers: ["KEY_LEFTSHIFT"],
                                           keymap: "left", keymapFile: "/c/left.toml")],
            keymap: "web", keymapFile: "/c/web.toml", focusApp: "firefox", focusTitle: "Docs", focusSource: "sway",
            focusSources: ["sway", "dbus"], keymapErrors: ["/c/bad.toml:1:1: error: x\n   1 | y"],
            layout: "us,de", layoutGroup: 1, layoutOrigin: "sway")
        let text = ControlText.status(s)
        #expect(text == """
            TapUinput daemon 0.1.0
            keymap:  web (/c/web.toml; selected by focus)
            focus:   firefox "Docs" via sway
            sources: sway, dbus
            layout:  us,de, group 2 (from sway)
            devices:
              AA:01  Tap_1  connected  battery 80%
                mode controller, firmware 2.3.31
                layer numbers, locked shift, keymap left (/c/left.toml)
            keymap errors (these files run their last good version):
              /c/bad.toml:1:1: error: x
                 1 | y
            """)
    }
}
