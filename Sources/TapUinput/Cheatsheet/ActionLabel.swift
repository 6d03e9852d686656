import ChordMap
import KeyboardLayout

/// Short human labels for actions, as printed on the cheat sheet: `a`, `?`, `Space`, `⌫`,
/// `Enter`, `Ctrl+C`, `Shift (one-shot)`, `→ numbers`, `“Hello”`.
///
/// Labels are plain text (not escaped); the renderer escapes them.
enum ActionLabel {
    /// The label of `action` as bound in layer `layer`.
    ///
    /// The layer matters for `toggle(L)` bound inside `L`: that returns to base, so it reads `→ base`.
    static func label(_ action: Action, inLayer layer: String) -> String {
        switch action {
        case .key(let key, let modifiers): return combo(key, modifiers)
        case .character(let c, let modifiers): return character(c, modifiers)
        case .usKey(let c, let modifiers): return character(c, modifiers) + " (US key)"
        case .text(let text):
            let shown = String(text.map { $0 == "\n" ? "⏎" : $0 == "\t" ? "⇥" : $0 })
            return "“" + Markup.truncated(shown, to: 24) + "”"
        case .typed(let strokes):
            return strokes.map { combo($0.key, $0.modifiers) }.joined(separator: " ")
        case .sequence(let actions):
            return actions.map { label($0, inLayer: layer) }.joined(separator: ", ")
        case .oneShotModifiers(let mods): return modifierNames(mods) + " (one-shot)"
        case .lockModifiers(let mods): return modifierNames(mods) + " (lock)"
        case .oneShotLayer(let target): return "→ \(target) (one chord)"
        case .toggleLayer(let target): return target == layer ? "→ base" : "→ \(target)"
        case .clear: return "Clear (→ base)"
        case .doubleClick(let button): return "Double " + keyName(button).lowercasedFirst
        case .dragLock(let button): return button == .buttonLeft ? "Drag lock" : "Drag lock (\(keyName(button)))"
        case .wheel(let vertical, let horizontal): return wheel(vertical: vertical, horizontal: horizontal)
        case .toggleScroll: return "Scroll mode"
        case .vibrate: return "Vibrate"
        case .setInputMode(let mode): return "Mode: \(mode)"
        case .setXRState(let state): return "XR: \(state)"
        case .run(let argv): return "Run: " + Markup.truncated(argv.joined(separator: " "), to: 24)
        case .none: return "—"
        case .macro(let steps): return steps.map { label($0.action, inLayer: layer) }.joined(separator: ", … ")
        case .alias(let name): return "@" + name
        }
    }

    /// A character, with modifiers as a shortcut: `a`, `?`, `Space`, `Ctrl+C`, `Ctrl+Shift+T`.
    static func character(_ c: Character, _ modifiers: [KeyCode]) -> String {
        let main = c == " " ? "Space" : String(c)
        if modifiers.isEmpty { return main }
        // In a shortcut letters read as on the keycaps: Ctrl+C.
        return (modifiers.map(modifierName) + [main.count == 1 ? main.uppercased() : main]).joined(separator: "+")
    }

    /// US keycaps: the character each physical key types on a US layout, for labels of keys
    /// bound by name (`KEY_SLASH` shows as `/`).
    private static let usKeycaps = (try? CharacterMap(layout: .fallback, composeLocale: "C")) ?? .empty

    /// `Ctrl+C`, `Ctrl++`, `A`, `?`, `Alt+←`.
    ///
    /// Shift on a key whose shifted character is printable shows as that character (`?`, not
    /// `Shift+/`), since that is how keymaps spell it; with other modifiers a letter keeps an
    /// explicit Shift (`Ctrl+Shift+T`), because `Ctrl+T` would name a different shortcut.
    static func combo(_ key: KeyCode, _ modifiers: [KeyCode]) -> String {
        var mods = modifiers
        var main = keyName(key)
        if let i = mods.firstIndex(of: .leftShift), let shifted = usKeycaps.characterByStroke[KeyStroke(key: key, modifiers: [.leftShift])],
           !shifted.isLetter || mods.count == 1 {
            mods.remove(at: i)
            main = String(shifted)
        }
        if mods.isEmpty { return main }
        // In a shortcut letters read as on the keycaps: Ctrl+C.
        if main.count == 1 { main = main.uppercased() }
        return (mods.map(modifierName) + [main]).joined(separator: "+")
    }

    /// `Shift`, `Ctrl+Alt`.
    static func modifierNames(_ mods: [KeyCode]) -> String {
        mods.map(modifierName).joined(separator: "+")
    }

    static func modifierName(_ key: KeyCode) -> String {
        switch key {
        case .leftCtrl: "Ctrl"
        case .leftShift: "Shift"
        case .leftAlt: "Alt"
        case .leftMeta: "Super"
        case .rightCtrl: "RCtrl"
        case .rightShift: "RShift"
        case .rightAlt: "AltGr"
        case .rightMeta: "RSuper"
        default: keyName(key)
        }
    }

    /// The label of a single key without modifiers: the character it types, or a name.
    static func keyName(_ key: KeyCode) -> String {
        if let special = specialNames[key.name] { return special }
        // Printable keys: the character on the (US) keycap.
        if key != .space, key != .enter, key != .tab, let c = usKeycaps.characterByStroke[KeyStroke(key: key)] {
            return String(c)
        }
        var name = key.name
        for prefix in ["KEY_", "BTN_"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        // F-keys stay upper case; other kernel names read better capitalised: VOLUMEUP -> Volumeup.
        if name.first == "F", name.dropFirst().allSatisfy(\.isNumber) { return name }
        return name.prefix(1) + name.dropFirst().lowercased()
    }

    private static let specialNames: [String: String] = [
        "KEY_SPACE": "Space", "KEY_BACKSPACE": "⌫", "KEY_ENTER": "Enter", "KEY_TAB": "Tab",
        "KEY_ESC": "Esc", "KEY_DELETE": "Del", "KEY_INSERT": "Ins", "KEY_HOME": "Home", "KEY_END": "End",
        "KEY_PAGEUP": "PgUp", "KEY_PAGEDOWN": "PgDn", "KEY_LEFT": "←", "KEY_RIGHT": "→", "KEY_UP": "↑",
        "KEY_DOWN": "↓", "KEY_CAPSLOCK": "Caps Lock", "KEY_SYSRQ": "PrtSc", "KEY_COMPOSE": "Menu",
        "KEY_LEFTCTRL": "Ctrl", "KEY_LEFTSHIFT": "Shift", "KEY_LEFTALT": "Alt", "KEY_LEFTMETA": "Super",
        "KEY_RIGHTCTRL": "RCtrl", "KEY_RIGHTSHIFT": "RShift", "KEY_RIGHTALT": "AltGr", "KEY_RIGHTMETA": "RSuper",
        "KEY_MUTE": "Mute", "KEY_VOLUMEUP": "Vol+", "KEY_VOLUMEDOWN": "Vol−", "KEY_PLAYPAUSE": "Play/Pause",
        "KEY_NEXTSONG": "Next track", "KEY_PREVIOUSSONG": "Prev track", "KEY_BRIGHTNESSUP": "Bright+",
        "KEY_BRIGHTNESSDOWN": "Bright−", "KEY_KPENTER": "Enter (keypad)",
        "BTN_LEFT": "Click", "BTN_RIGHT": "Right click", "BTN_MIDDLE": "Middle click",
        "BTN_SIDE": "Back button", "BTN_EXTRA": "Forward button",
    ]

    /// `Wheel ↑`, `Wheel ↓ ×3`, `Wheel →`.
    static func wheel(vertical: Int32, horizontal: Int32) -> String {
        func part(_ units: Int32, _ plus: String, _ minus: String) -> String? {
            guard units != 0 else { return nil }
            let notches = abs(units) / 120
            return "Wheel " + (units > 0 ? plus : minus) + (notches > 1 ? " ×\(notches)" : "")
        }
        let parts = [part(vertical, "↑", "↓"), part(horizontal, "→", "←")].compactMap { $0 }
        return parts.isEmpty ? "Wheel" : parts.joined(separator: ", ")
    }
}

fileprivate extension String {
    /// The string with its first character lower-cased: `Right click` -> `right click`.
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
