import Testing
@testable import ChordMap
@testable import TapUinput

/// Human labels for actions and the text-fitting helpers of the cheat sheet.
@Suite struct CheatsheetLabelTests {
    func label(_ spelling: String, inLayer layer: String = "base") throws -> String {
        ActionLabel.label(try ActionParser.parse(spelling), inLayer: layer)
    }

    @Test(arguments: [
        ("a", "a"), ("A", "A"), ("?", "?"), ("1", "1"), ("space", "Space"), ("backspace", "⌫"),
        ("enter", "Enter"), ("tab", "Tab"), ("esc", "Esc"), ("left", "←"), ("pgup", "PgUp"), ("f5", "F5"),
        ("ctrl+c", "Ctrl+C"), ("ctrl++", "Ctrl++"), ("ctrl+shift+t", "Ctrl+Shift+T"), ("alt+left", "Alt+←"),
        ("super+a", "Super+A"), ("shift+tab", "Shift+Tab"), ("ctrl+?", "Ctrl+?"),
        ("oneshot(shift)", "Shift (one-shot)"), ("oneshot(ctrl+alt)", "Ctrl+Alt (one-shot)"),
        ("lock(shift)", "Shift (lock)"), ("toggle(numbers)", "→ numbers"), ("layer(nav)", "→ nav (one chord)"),
        ("base", "→ base"), ("clear", "Clear (→ base)"), ("click", "Click"), ("right-click", "Right click"),
        ("double-click", "Double click"), ("drag-lock", "Drag lock"), ("wheel-up", "Wheel ↑"),
        ("wheel(-3)", "Wheel ↓ ×3"), ("hwheel(2)", "Wheel → ×2"), ("toggle-scroll", "Scroll mode"),
        ("text(Hi <you>)", "“Hi <you>”"), ("vibrate(100,50)", "Vibrate"), ("input-mode(raw)", "Mode: raw"),
        ("xr-state(auto)", "XR: auto"), ("volumeup", "Vol+"), ("KEY_SEARCH", "Search"), ("none", "—"),
    ])
    func labels(spelling: String, expected: String) throws {
        #expect(try label(spelling) == expected)
    }

    @Test func togglingTheCurrentLayerReadsAsReturningToBase() throws {
        #expect(try label("toggle(numbers)", inLayer: "numbers") == "→ base")
        #expect(try label("toggle(numbers)", inLayer: "web") == "→ numbers")
    }

    @Test func sequencesTextAndCommands() {
        let seq = Action.sequence([.key(KeyCode(name: "l")!, modifiers: [.leftCtrl]), .key(KeyCode(name: "c")!, modifiers: [.leftCtrl])])
        #expect(ActionLabel.label(seq, inLayer: "base") == "Ctrl+L, Ctrl+C")
        let text = Action.text("Kind regards,\nA. and a long tail")
        #expect(ActionLabel.label(text, inLayer: "base") == "“Kind regards,⏎A. and a …”")
        #expect(ActionLabel.label(.run(["notify-send", "hello"]), inLayer: "base") == "Run: notify-send hello")
    }

    @Test func escapingCoversMarkupCharactersAndControls() {
        #expect(Markup.escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;")
        #expect(Markup.escape("x\u{0}y\u{7F}\tz\n") == "x\u{FFFD}y\u{FFFD}\tz\n")
        #expect(Markup.escape("→ ⌫ é") == "→ ⌫ é")
    }

    @Test func longTextIsShrunkThenSqueezedButShortTextIsLeftAlone() {
        let short = FittedText(text: "a", x: 0, y: 0, size: 22, minSize: 11, maxWidth: 150).svg
        #expect(short.contains("font-size=\"22\"") && !short.contains("textLength"))
        let medium = FittedText(text: "Shift (one-shot)", x: 0, y: 0, size: 22, minSize: 11, maxWidth: 150, bold: true).svg
        #expect(!medium.contains("font-size=\"22\"") && !medium.contains("textLength"))
        let long = FittedText(text: String(repeating: "W", count: 40), x: 0, y: 0, size: 22, minSize: 11, maxWidth: 150).svg
        #expect(long.contains("font-size=\"11\"") && long.contains("textLength=\"150\""))
    }

    @Test func longTapLabelsWrapOntoTwoLinesAtTheMiddleSpace() {
        #expect(CheatsheetCard.split("Run: notify-send <hi> & bye")! == ("Run: notify-send", "<hi> & bye"))
        #expect(CheatsheetCard.split("nospace") == nil)
        let two = CheatsheetCard.tapLabel("Run: notify-send <hi> & bye", cx: 0, baseline: 70, maxWidth: 154,
                                          twoLineBaselines: (60, 80))
        #expect(two.components(separatedBy: "<text ").count == 3)
        #expect(two.contains(">Run: notify-send</text>") && two.contains(">&lt;hi&gt; &amp; bye</text>"))
        let one = CheatsheetCard.tapLabel("Enter", cx: 0, baseline: 70, maxWidth: 154, twoLineBaselines: (60, 80))
        #expect(one.components(separatedBy: "<text ").count == 2)
    }
}
