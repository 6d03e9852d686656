/// A key and the modifiers held down with it: one keystroke.
public struct KeyStroke: Hashable, Sendable, CustomStringConvertible {
    public var key: KeyCode
    /// Pressed before `key` and released after it (Shift, AltGr = `KEY_RIGHTALT`, ...).
    public var modifiers: [KeyCode]

    public init(key: KeyCode, modifiers: [KeyCode] = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// `KEY_LEFTSHIFT+KEY_A`.
    public var description: String { (modifiers + [key]).map(\.name).joined(separator: "+") }
}

/// Which keystrokes type each character on one keyboard layout: what ``Keymap/resolvingCharacters(with:)``
/// compiles `character` and `text` actions with.
///
/// Built outside this module (the `KeyboardLayout` target inverts a libxkbcommon keymap) whenever
/// the layout changes; the engine only looks characters up in it when a keymap or the layout
/// changes, never per key.
public struct CharacterMap: Sendable, Equatable {
    /// What it was built from, for logs and `status`: `de(nodeadkeys)`, `x11 keymap, group 1`.
    public var name: String
    /// The keystrokes for each character the layout can type: one for a key (with its shift
    /// level's modifiers), several for a dead-key sequence (`´` then `e` for `é`).
    public var strokes: [Character: [KeyStroke]]
    /// The key for each character of the US layout: for `us(...)` spellings and for shortcuts
    /// whose character the active layout lacks (Cyrillic, Greek, ...).
    public var usPositions: [Character: KeyStroke]
    /// The character each single keystroke types, for labels (the cheat sheet, the `Tap` signal).
    public private(set) var characterByStroke: [KeyStroke: Character] = [:]

    public init(name: String, strokes: [Character: [KeyStroke]], usPositions: [Character: KeyStroke]) {
        self.name = name
        self.strokes = strokes
        self.usPositions = usPositions
        for (c, s) in strokes where s.count == 1 {
            // Deterministic when two keys type the same character: the lower key code wins.
            if let old = characterByStroke[s[0]], old != c, String(old) < String(c) { continue }
            characterByStroke[s[0]] = c
        }
    }

    /// A layout that types nothing: characters resolve to nothing (with warnings), keys still work.
    public static let empty = CharacterMap(name: "none", strokes: [:], usPositions: [:])
}
