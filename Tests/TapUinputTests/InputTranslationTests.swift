import ChordMap
import Testing
@testable import TapBLE
@testable import TapUinput

/// Keymap names for device modes reach the device: every name the action parser accepts
/// translates, to the mode the protocol document gives it.
@Suite struct InputTranslationTests {
    @Test(arguments: Action.inputModeNames)
    func everyInputModeNameTranslates(name: String) throws {
        let mode = try #require(InputMode(keymapName: name))
        #expect(try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"input-mode(\(name))\"\n", file: "t.toml")
            .layers[0].bindings.count == 1)
        let expected: [String: InputMode] = ["text": .text, "controller": .controller, "controller+mouse": .controllerWithMouseHID,
                                             "controller+text": .controllerWithFullHID, "raw": .raw(RawSensitivity())]
        #expect(mode == expected[name])
    }

    @Test(arguments: Action.xrStateNames)
    func everyXRStateNameTranslates(name: String) throws {
        let state = try #require(XRState(keymapName: name))
        let expected: [String: XRState] = ["air-mouse": .airMouse, "tapping": .tapping, "auto": .userControl]
        #expect(state == expected[name])
    }

    @Test func unknownNamesDoNot() {
        #expect(InputMode(keymapName: "controller-mouse") == nil)
        #expect(XRState(keymapName: "mouse") == nil)
    }
}
