import FoundationEssentials
import Testing
@testable import TapUinput

/// Which keyboard's layout counts, from sway's `GET_INPUTS` replies and `input` events (shaped as
/// sway 1.7 sends them; a real sway in the VM test `desktop_sway` sends the real ones).
@Suite struct FocusSwayInputsTests {
    static let inputs = #"""
        [{"identifier": "1:1:AT_Translated_Set_2_keyboard", "name": "AT Translated Set 2 keyboard",
          "vendor": 1, "product": 1, "type": "keyboard", "repeat_delay": 600, "repeat_rate": 25,
          "xkb_layout_names": ["German", "English (US)"], "xkb_active_layout_index": 0,
          "xkb_active_layout_name": "German", "libinput": {"send_events": "enabled"}},
         {"identifier": "2:14:ETPS/2_Elantech_Touchpad", "name": "ETPS/2 Elantech Touchpad",
          "type": "touchpad", "libinput": {"tap": "enabled"}}]
        """#

    static func event(_ change: String, identifier: String, name: String, layout: String) -> SwayInputEvent {
        let json = #"{"change": "\#(change)", "input": {"identifier": "\#(identifier)", "name": "\#(name)", "type": "keyboard", "xkb_active_layout_name": "\#(layout)"}}"#
        return try! JSONDecoder().decode(SwayInputEvent.self, from: Data(json.utf8))
    }

    @Test func theFirstKeyboardCountsUntilOursAppears() throws {
        var k = KeyboardLayoutTable(preferredName: "TapUinput keyboard")
        k.replaceAll(try JSONDecoder().decode([SwayInput].self, from: Data(Self.inputs.utf8)))
        #expect(k.activeLayout == "German")
        #expect(k.keyboards.count == 1)   // the touchpad has no layout

        k.apply(Self.event("added", identifier: "1234:1:TapUinput_keyboard", name: "TapUinput keyboard", layout: "French"))
        #expect(k.activeLayout == "French")
        // The other keyboard switches group: ours still counts.
        k.apply(Self.event("xkb_layout", identifier: "1:1:AT_Translated_Set_2_keyboard", name: "AT Translated Set 2 keyboard",
                           layout: "English (US)"))
        #expect(k.activeLayout == "French")
        k.apply(Self.event("xkb_layout", identifier: "1234:1:TapUinput_keyboard", name: "TapUinput keyboard", layout: "Russian"))
        #expect(k.activeLayout == "Russian")
        k.apply(Self.event("removed", identifier: "1234:1:TapUinput_keyboard", name: "TapUinput keyboard", layout: "Russian"))
        #expect(k.activeLayout == "English (US)")
        k.replaceAll([])
        #expect(k.activeLayout == nil)
    }
}
