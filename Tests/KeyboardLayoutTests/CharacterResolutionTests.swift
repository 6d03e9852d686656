import ChordMap
import KeyboardLayout
import Testing

/// Characters resolved for real layouts from xkeyboard-config, checked by typing the keystrokes
/// into a libxkbcommon keyboard state (with the compose table for dead keys) and reading back
/// what an application would receive.
@Suite("Characters on keyboard layouts")
struct CharacterResolutionTests {
    static let layouts = ["us", "de", "fr", "es", "us(dvorak)", "gb", "ru", "us(intl)"]
    /// Beyond ASCII, and the punctuation that moves between layouts.
    static let sample = "äöüß€@{}|\\~é"

    static func compile(_ name: String) throws -> XKBKeymap {
        try XKBKeymap(LayoutReport(.names(LayoutNames(spelling: name)!), origin: "test"))
    }

    /// What `strokes` type on `xkb`, pressed and released as the frame writer does.
    static func typed(_ strokes: [KeyStroke], on xkb: XKBKeymap) -> String {
        var decoder = XKBTextDecoder(xkb, composeLocale: "en_US.UTF-8")
        for s in strokes {
            for m in s.modifiers { decoder.key(m, pressed: true) }
            decoder.key(s.key, pressed: true)
            decoder.key(s.key, pressed: false)
            for m in s.modifiers.reversed() { decoder.key(m, pressed: false) }
        }
        return decoder.text
    }

    @Test(arguments: layouts)
    func everyCharacterTypesItselfOrIsReported(_ name: String) throws {
        let xkb = try Self.compile(name)
        let map = CharacterMap(xkb, composeLocale: "en_US.UTF-8")
        var characters = Set(Self.sample)
        for layer in KeymapLoader.builtinDefault.layers {
            for (_, binding) in layer.bindings {
                for action in binding.allActionsForTest {
                    if case .character(let c, let mods) = action, mods.allSatisfy({ $0 == .leftShift }) { characters.insert(c) }
                }
            }
        }
        #expect(characters.count > 40)
        for c in characters {
            if let strokes = map.strokes[c] {
                #expect(Self.typed(strokes, on: xkb) == String(c), "\(c) on \(name): \(strokes)")
            } else {
                // Untypeable: must be reported by the keymap resolution, never replaced.
                let keymap = Keymap(name: "t", layers: [Layer(name: "base", bindings: [.thumb: Binding(tap: .text(String(c)))])])
                #expect(keymap.resolvingCharacters(with: map).untypeable.map(\.character) == [c], "\(c) on \(name)")
            }
        }
    }

    @Test(arguments: ["us", "de", "fr", "es", "us(dvorak)", "gb", "us(intl)"])
    func theSampleIsFullyTypeableWhereTheLayoutHasIt(_ name: String) throws {
        let xkb = try Self.compile(name)
        let map = CharacterMap(xkb, composeLocale: "en_US.UTF-8")
        let keymap = Keymap(name: "t", layers: [Layer(name: "base", bindings: [.thumb: Binding(tap: .text(Self.sample))])])
        let (resolved, missing) = keymap.resolvingCharacters(with: map)
        guard case .typed(let strokes) = resolved.layers[0][.thumb]?.tap else { Issue.record("not resolved"); return }
        let expectedMissing: Set<Character> = ["us", "us(dvorak)"].contains(name) ? ["ä", "ö", "ü", "ß", "é"] : []
        #expect(Set(missing.map(\.character)) == expectedMissing, "\(name)")
        #expect(Self.typed(strokes, on: xkb) == String(Self.sample.filter { !expectedMissing.contains($0) }), "\(name)")
    }

    /// Facts about the layouts, independent of the inversion: the keys people know.
    @Test func wellKnownKeys() throws {
        let de = CharacterMap(try Self.compile("de"), composeLocale: "en_US.UTF-8")
        #expect(de.strokes["z"] == [KeyStroke(key: KeyCode(name: "y")!)])
        #expect(de.strokes["y"] == [KeyStroke(key: KeyCode(name: "z")!)])
        #expect(de.strokes["@"] == [KeyStroke(key: KeyCode(name: "q")!, modifiers: [.rightAlt])])
        #expect(de.strokes["â"] == [KeyStroke(key: KeyCode(name: "grave")!), KeyStroke(key: KeyCode(name: "a")!)])
        let fr = CharacterMap(try Self.compile("fr"), composeLocale: "en_US.UTF-8")
        #expect(fr.strokes["a"] == [KeyStroke(key: KeyCode(name: "q")!)])
        #expect(fr.strokes["m"] == [KeyStroke(key: KeyCode(name: "semicolon")!)])
        #expect(fr.strokes["1"] == [KeyStroke(key: KeyCode(name: "1")!, modifiers: [.leftShift])])
        let dvorak = CharacterMap(try Self.compile("us(dvorak)"), composeLocale: "en_US.UTF-8")
        #expect(dvorak.strokes["s"] == [KeyStroke(key: KeyCode(name: "semicolon")!)])
        // € has a key of its own (KEY_EURO, X keycode 443) that X11 cannot carry: AltGr+E where the
        // layout has it; KEY_EURO only where nothing else types €.
        #expect(de.strokes["€"] == [KeyStroke(key: KeyCode(name: "e")!, modifiers: [.rightAlt])])
        #expect(fr.strokes["€"] == [KeyStroke(key: KeyCode(name: "e")!, modifiers: [.rightAlt])])
        let us = CharacterMap(try Self.compile("us"), composeLocale: "en_US.UTF-8")
        #expect(us.strokes["€"] == [KeyStroke(key: KeyCode(name: "KEY_EURO")!)])
    }

    /// Shortcuts press the key that types the character, or on a non-Latin layout the key at its
    /// US position; `us(...)` always the US position.
    @Test func shortcutsFollowTheLayoutAndFallBackToUSPositions() throws {
        let keymap = try KeymapLoader.parse(source: """
            [layers.base]
            "x...." = "ctrl+z"
            ".x..." = "us(ctrl+z)"
            "..x.." = "ctrl+а"
            """)
        func resolved(_ layout: String) throws -> [Action?] {
            let map = CharacterMap(try Self.compile(layout), composeLocale: "C")
            let k = keymap.resolvingCharacters(with: map).keymap
            return [Chord.thumb, .index, .middle].map { k.layers[0][$0]?.tap }
        }
        let y = KeyCode(name: "y")!, z = KeyCode(name: "z")!, f = KeyCode(name: "f")!
        #expect(try resolved("de") == [.key(y, modifiers: [.leftCtrl]), .key(z, modifiers: [.leftCtrl]), Action.none])
        #expect(try resolved("ru") == [.key(z, modifiers: [.leftCtrl]), .key(z, modifiers: [.leftCtrl]), .key(f, modifiers: [.leftCtrl])])
    }

    /// Characters no key types go through Ctrl+Shift+U when the keymap asks for it.
    @Test func unicodeInputTypesTheCodePointInHex() throws {
        var keymap = Keymap(name: "t", layers: [Layer(name: "base", bindings: [.thumb: Binding(tap: .text("✓"))])])
        keymap.options.unicode = .ctrlShiftU
        let xkb = try Self.compile("fr")
        let (resolved, missing) = keymap.resolvingCharacters(with: CharacterMap(xkb, composeLocale: "C"))
        #expect(missing.isEmpty)
        guard case .typed(let strokes) = resolved.layers[0][.thumb]?.tap else { Issue.record("not resolved"); return }
        #expect(strokes.first == KeyStroke(key: KeyCode(name: "u")!, modifiers: [.leftCtrl, .leftShift]))
        // What follows Ctrl+Shift+U types "2713 " on AZERTY (digits need Shift there).
        #expect(Self.typed(Array(strokes.dropFirst()), on: xkb) == "2713 ")
    }

    /// The same TapCode sentence reads the same on every Latin layout.
    @Test(arguments: ["us", "de", "fr", "es", "us(dvorak)", "gb", "us(intl)"])
    func theTapCodeSentenceReadsTheSame(_ name: String) throws {
        let script = "xxx..\n.xxxx +500ms\n..x.. +500ms\nxxxxx +500ms\n..xxx\n...x.\n.x...\n..xxx\nxxxxx +100ms\nxxxxx\n"
        let xkb = try Self.compile(name)
        let text = try Simulator.run(script: script, keymap: KeymapLoader.builtinDefault,
                                     characters: CharacterMap(xkb, composeLocale: "C"),
                                     text: XKBTextDecoder(xkb, composeLocale: "C"))
        #expect(text == "Hi 42.")
    }

    @Test func unknownLayoutsAreErrorsWithAHint() {
        #expect(throws: LayoutError.self) { try Self.compile("xx") }
        #expect(LayoutNames(spelling: "de(nodeadkeys)") == LayoutNames(layout: "de", variant: "nodeadkeys"))
        #expect(LayoutNames(spelling: "us,de:neo")?.description == "us,de(neo)")
        #expect(LayoutNames(spelling: "de;rm -rf") == nil)
    }
}

extension Binding {
    var allActionsForTest: [Action] {
        ([tap] + [double, triple].compactMap { $0 }).flatMap { a -> [Action] in
            if case .sequence(let s) = a { return s }
            return [a]
        }
    }
}
