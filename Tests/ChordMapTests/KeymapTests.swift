import Foundation
import Testing
@testable import ChordMap

@Suite("Chords, key names and the US layout")
struct NamingTests {
    @Test(arguments: [
        ("x.x..", 5), ("thumb+middle", 5), ("5", 5), ("xxxxx", 31), ("....x", 16), ("o-o--", 5),
        ("pinky+thumb", 17), ("31", 31), ("1", 1), (" index ", 2),
    ])
    func chordSpellings(_ spelling: String, _ value: Int) {
        #expect(Chord(spelling: spelling)?.rawValue == UInt8(value))
    }

    @Test(arguments: [".....", "0", "32", "x.x.", "x.x...", "thumb+thumb", "thumbs", "", "-3", "x.y.."])
    func notChords(_ spelling: String) {
        #expect(Chord(spelling: spelling) == nil)
        #expect(Chord.problem(with: spelling) != nil)
    }

    @Test func patternRoundTrips() {
        for v in UInt8(1)...31 {
            let c = Chord(rawValue: v)!
            #expect(Chord(spelling: c.pattern) == c)
        }
        #expect(Chord(rawValue: 0) == nil && Chord(rawValue: 32) == nil)
    }

    @Test(arguments: [
        ("a", 30), ("KEY_A", 30), ("key_a", 30), ("enter", 28), ("ctrl", 29), ("shift", 42), ("esc", 1),
        ("f12", 88), ("click", 0x110), ("btn_right", 0x111), ("pgdn", 109), ("volumeup", 115), ("super", 125),
    ])
    func keyNames(_ name: String, _ code: Int) {
        #expect(KeyCode(name: name)?.rawValue == UInt16(code))
    }

    @Test func codesPrintWithKernelNames() {
        #expect(KeyCode(rawValue: 30).name == "KEY_A")
        #expect(KeyCode(rawValue: 0x110).name == "BTN_LEFT")
        #expect(KeyCode(rawValue: 0x110).isMouseButton && !KeyCode(rawValue: 30).isMouseButton)
        #expect(KeyCode.leftShift.isModifier && !KeyCode.capsLock.isModifier)
        #expect(KeyCode(name: "nosuchkey") == nil)
    }

    @Test func singleCharactersAreCharactersAndNamesAreKeys() throws {
        #expect(try ActionParser.parse("a") == .character("a", modifiers: []))
        #expect(try ActionParser.parse("é") == .character("é", modifiers: []))
        #expect(try ActionParser.parse("ctrl+z") == .character("z", modifiers: [.leftCtrl]))
        #expect(try ActionParser.parse("KEY_A") == .key(KeyCode(rawValue: 30), modifiers: []))
        #expect(try ActionParser.parse("us(ctrl+;)") == .usKey(";", modifiers: [.leftCtrl]))
        #expect(throws: ActionParser.Failure.self) { try ActionParser.parse("text(a\u{7}b)") }
    }

    @Test func suggestionsFindTypos() {
        #expect(Suggest.nearest("entr", in: KeyNames.suggestible).first == "enter")
        #expect(Suggest.nearest("dbl", in: ["tap", "double", "triple"]) == ["double"])
        #expect(Suggest.nearest("zzzzzz", in: ["tap", "double"]).isEmpty)
    }
}

@Suite("Keymap loading")
struct KeymapTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func embeddedDefaultEqualsConfigFileByteForByte() throws {
        let file = try Data(contentsOf: Self.packageRoot.appendingPathComponent("config/default.toml"))
        #expect(Array(DefaultKeymap.source.utf8) == Array(file))
    }

    @Test func everyConfigExampleIsValid() throws {
        let dir = Self.packageRoot.appendingPathComponent("config")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }
        #expect(files.count >= 2)
        for f in files {
            #expect(throws: Never.self, "\(f)") { _ = try KeymapLoader.load(path: dir.appendingPathComponent(f).path) }
        }
    }

    /// tap-protocol §5.1: the default single taps, and every one of the 31 chords bound in base.
    @Test(arguments: [
        (1, "a"), (2, "e"), (4, "i"), (8, "o"), (16, "u"), (3, "n"), (6, "t"), (12, "l"), (24, "s"), (5, "d"),
        (10, "m"), (20, "z"), (9, "k"), (18, "b"), (17, "y"), (21, "w"), (30, "h"), (29, "c"), (27, "v"),
        (23, "j"), (15, "r"), (13, "g"), (26, "x"), (11, "f"), (22, "q"), (19, "p"), (25, "enter"),
        (31, "space"), (14, "backspace"),
    ])
    func defaultSingleTaps(_ chord: Int, _ key: String) {
        // Letters are characters, resolved for the layout; on US QWERTY each is its own key.
        let base = KeymapLoader.builtinDefault.resolvingCharacters(with: TestLayout.us).keymap.layers[0]
        #expect(base[Chord(rawValue: UInt8(chord))!]?.tap == .key(KeyCode(name: key)!, modifiers: []))
    }

    @Test func defaultBindsAllChordsAndTheSpecialOnes() {
        let k = KeymapLoader.builtinDefault
        #expect(k.layers[0].bindings.count == 31)
        #expect(k.layers[0][Chord(rawValue: 7)!] == Binding(tap: .oneShotModifiers([.leftShift]), double: .lockModifiers([.leftShift])))
        #expect(k.layers[0][Chord(rawValue: 28)!]?.tap == .toggleLayer("numbers"))
        #expect(k.options.multiTapWindowMs == 300)
        let digits = [1, 2, 4, 8, 16, 17, 18, 20, 24, 30].map { k.layers[1][Chord(rawValue: UInt8($0))!]?.tap }
        #expect(digits == "1234567890".map { .character($0, modifiers: []) })
    }

    @Test func extendsOverridesSingleChords() throws {
        let child = """
            extends = "builtin"
            name = "browser"
            [match]
            apps = ["firefox", "org.mozilla.firefox"]
            [options]
            multi-tap-window-ms = 250
            [layers.base]
            "xx..." = "ctrl+t"          # n becomes new tab
            "x...." = "none"            # a unbound
            """
        let k = try KeymapLoader.parse(source: child, file: "browser.toml")
        #expect(k.name == "browser")
        #expect(k.match.apps == ["firefox", "org.mozilla.firefox"])
        #expect(k.options.multiTapWindowMs == 250)
        #expect(k.layers[0][Chord(rawValue: 3)!]?.tap == .character("t", modifiers: [.leftCtrl]))
        #expect(k.layers[0][Chord(rawValue: 1)!] == Binding(tap: .none))
        #expect(k.layers[0][Chord(rawValue: 2)!]?.double == .character("!", modifiers: []))  // inherited
        #expect(k.layers.map(\.name) == ["base", "numbers"])
    }

    @Test func matchSelectsAppsAndDevices() {
        let m = KeymapMatch(apps: ["Firefox"], devices: [])
        #expect(m.matches(app: "firefox", device: "tap1"))
        #expect(!m.matches(app: "kitty", device: "tap1"))
        #expect(!m.matches(app: nil, device: "tap1"))
        #expect(KeymapMatch().matches(app: nil, device: nil))
        #expect(!KeymapMatch(apps: [], devices: ["left"]).matches(app: "x", device: "right"))
    }

    @Test func loadResolvesExtendsRelativeToTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chordmap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("apps"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "[layers.base]\n\"x....\" = \"a\"\n\".x...\" = \"b\"\n".write(to: dir.appendingPathComponent("base.toml"), atomically: true, encoding: .utf8)
        try "extends = \"../base.toml\"\n[layers.base]\n\".x...\" = \"c\"\n".write(to: dir.appendingPathComponent("apps/term.toml"), atomically: true, encoding: .utf8)
        let k = try KeymapLoader.load(path: dir.appendingPathComponent("apps/term.toml").path)
        #expect(k.layers[0][Chord(rawValue: 1)!]?.tap == .character("a", modifiers: []))
        #expect(k.layers[0][Chord(rawValue: 2)!]?.tap == .character("c", modifiers: []))
        #expect(throws: KeymapError.self) { _ = try KeymapLoader.load(path: dir.appendingPathComponent("missing.toml").path) }
    }

    @Test func errorsInAParentNameTheParentFile() {
        do {
            _ = try KeymapLoader.parse(source: "extends = \"p.toml\"\n", file: "child.toml") { ref, _ in
                ref == "p.toml" ? ("[layers.base]\n\"x....\" = \"nokey\"\n", "p.toml") : nil
            }
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("p.toml:2:11: error: unknown key name \"nokey\""))
        }
    }

    @Test func allSpellingsParse() throws {
        let k = try KeymapLoader.parse(source: """
            [mouse]
            sensitivity = 2
            invert-y = true
            [gestures]
            pinch = "click"
            [layers.base]
            "thumb" = "a"
            "2" = "ctrl++"
            "x.x.." = "+"
            "index+middle" = ["text(x)", { text = "y" }]
            """, file: "k.toml")
        #expect(k.mouse.sensitivity == 2 && k.mouse.invertY)
        #expect(k.gestures[10] == .key(.buttonLeft, modifiers: []))
        #expect(k.layers[0][Chord(rawValue: 2)!]?.tap == .character("+", modifiers: [.leftCtrl]))
        #expect(k.layers[0][Chord(rawValue: 5)!]?.tap == .character("+", modifiers: []))
        #expect(k.layers[0][Chord(rawValue: 6)!]?.tap == .sequence([.text("x"), .text("y")]))
    }
}

@Suite("Two-hand and sequence spellings")
struct HandSpellingTests {
    @Test func leftHandReadsPinkyFirst() {
        #expect(ChordKey(spelling: "....x|x....") == .hands(HandChord(left: 1, right: 1)!))
        #expect(ChordKey(spelling: "x....|.....") == .hands(HandChord(left: 16, right: 0)!))   // left pinky
        #expect(ChordKey(spelling: "thumb+index|") == .hands(HandChord(left: 3, right: 0)!))
        #expect(ChordKey(spelling: "thumb|pinky") == .hands(HandChord(left: 1, right: 16)!))
        #expect(ChordKey(spelling: "3|5") == .hands(HandChord(left: 3, right: 5)!))
        #expect(ChordKey(spelling: "x.x..") == .anyHand(Chord(rawValue: 5)!))
        #expect(ChordKey(spelling: ".....|.....") == nil)
        #expect(ChordKey(spelling: "x|x|x") == nil)
    }

    @Test func descriptionReadsBack() {
        for l in UInt8(0)...31 { for r in UInt8(0)...31 {
            guard let h = HandChord(left: l, right: r) else { continue }
            #expect(ChordKey(spelling: h.description) == .hands(h))
        } }
    }

    @Test func loaderKeepsHandsBindingsAndSequences() throws {
        let k = try KeymapLoader.parse(source: """
            [hands]
            left = "Tap_L"
            right = "AA:BB:CC:DD:EE:FF"
            [options]
            combo-window-ms = 45
            [layers.base]
            "x...." = "a"
            "....x|x...." = "space"
            "x...., ....x|x...." = "tab"
            """, file: "t.toml")
        #expect(k.hands == HandRoles(left: "Tap_L", right: "AA:BB:CC:DD:EE:FF"))
        #expect(k.hands.role(address: "aa:bb:cc:dd:ee:ff") == .right)
        #expect(k.hands.role(address: "11:22:33:44:55:66", name: "tap_l") == .left)
        #expect(k.options.comboWindowMs == 45)
        #expect(k.layers[0].handBindings[HandChord(left: 1, right: 1)!] == Binding(tap: .key(.space, modifiers: [])))
        #expect(k.layers[0].sequences.count == 1)
    }
}
