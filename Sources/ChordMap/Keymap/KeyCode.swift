/// A Linux input event code (`EV_KEY` values from `input-event-codes.h`): `KEY_A` is 30,
/// `BTN_LEFT` is 0x110. Codes from 0x110 are mouse buttons; the daemon routes them to the pointer
/// device and everything else to the keyboard device.
///
/// Names are looked up case-insensitively, with or without the `KEY_` prefix (`"KEY_ENTER"`,
/// `"enter"`), and through friendly aliases (`"ctrl"`, `"esc"`, `"click"`). Single printable
/// characters are *not* key names here: they are ``Action/character(_:modifiers:)``, typed on the active layout.
public struct KeyCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Looks a name up: kernel names (`KEY_A`, `BTN_LEFT`), the same without `KEY_`, or an alias.
    public init?(name: String) {
        guard let code = KeyNames.byName[name.lowercased()] else { return nil }
        self = code
    }

    /// The kernel name (`KEY_A`), or `KEY_<n>` / `BTN_<n>` for codes missing from the table.
    public var name: String { KeyNames.byCode[self] ?? (isMouseButton ? "BTN_\(rawValue)" : "KEY_\(rawValue)") }
    public var description: String { name }

    /// Mouse buttons (`BTN_LEFT` 0x110 ... `BTN_TASK` 0x117) go to the pointer device.
    public var isMouseButton: Bool { rawValue >= 0x110 && rawValue <= 0x117 }

    /// Ctrl, Shift, Alt, Meta on either side: pressed first and released last by the writer.
    public var isModifier: Bool { KeyCode.modifiers.contains(self) }

    public static func < (lhs: KeyCode, rhs: KeyCode) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let leftCtrl = KeyCode(rawValue: 29)
    public static let leftShift = KeyCode(rawValue: 42)
    public static let leftAlt = KeyCode(rawValue: 56)
    public static let leftMeta = KeyCode(rawValue: 125)
    public static let rightCtrl = KeyCode(rawValue: 97)
    public static let rightShift = KeyCode(rawValue: 54)
    public static let rightAlt = KeyCode(rawValue: 100)
    public static let rightMeta = KeyCode(rawValue: 126)
    public static let capsLock = KeyCode(rawValue: 58)
    public static let enter = KeyCode(rawValue: 28)
    public static let backspace = KeyCode(rawValue: 14)
    public static let tab = KeyCode(rawValue: 15)
    public static let space = KeyCode(rawValue: 57)
    public static let buttonLeft = KeyCode(rawValue: 0x110)
    public static let buttonRight = KeyCode(rawValue: 0x111)
    public static let buttonMiddle = KeyCode(rawValue: 0x112)

    /// The eight modifier keys.
    public static let modifiers: KeySet = [
        leftCtrl, leftShift, leftAlt, leftMeta, rightCtrl, rightShift, rightAlt, rightMeta,
    ]
}

/// The name table: kernel names plus aliases, and the reverse map for printing.
enum KeyNames {
    /// Friendly spellings. Modifiers without a side mean the left one.
    static let aliases: [String: String] = [
        "ctrl": "KEY_LEFTCTRL", "control": "KEY_LEFTCTRL", "shift": "KEY_LEFTSHIFT",
        "alt": "KEY_LEFTALT", "altgr": "KEY_RIGHTALT", "meta": "KEY_LEFTMETA", "super": "KEY_LEFTMETA",
        "win": "KEY_LEFTMETA", "cmd": "KEY_LEFTMETA", "rctrl": "KEY_RIGHTCTRL", "rshift": "KEY_RIGHTSHIFT",
        "ralt": "KEY_RIGHTALT", "rmeta": "KEY_RIGHTMETA", "lctrl": "KEY_LEFTCTRL", "lshift": "KEY_LEFTSHIFT",
        "lalt": "KEY_LEFTALT", "lmeta": "KEY_LEFTMETA",
        "esc": "KEY_ESC", "escape": "KEY_ESC", "return": "KEY_ENTER", "bs": "KEY_BACKSPACE",
        "del": "KEY_DELETE", "ins": "KEY_INSERT", "pgup": "KEY_PAGEUP", "pgdn": "KEY_PAGEDOWN",
        "pageup": "KEY_PAGEUP", "pagedown": "KEY_PAGEDOWN", "caps": "KEY_CAPSLOCK",
        "print": "KEY_SYSRQ", "printscreen": "KEY_SYSRQ", "prtsc": "KEY_SYSRQ",
        "dot": "KEY_DOT", "period": "KEY_DOT", "quote": "KEY_APOSTROPHE", "backtick": "KEY_GRAVE",
        "leftbracket": "KEY_LEFTBRACE", "rightbracket": "KEY_RIGHTBRACE",
        "volup": "KEY_VOLUMEUP", "voldown": "KEY_VOLUMEDOWN", "play": "KEY_PLAYPAUSE",
        "next": "KEY_NEXTSONG", "prev": "KEY_PREVIOUSSONG", "previous": "KEY_PREVIOUSSONG",
        "click": "BTN_LEFT", "left-click": "BTN_LEFT", "leftclick": "BTN_LEFT",
        "right-click": "BTN_RIGHT", "rightclick": "BTN_RIGHT",
        "middle-click": "BTN_MIDDLE", "middleclick": "BTN_MIDDLE",
        "btn_back": "BTN_SIDE", "btn_forward": "BTN_EXTRA",
    ]

    static let byName: [String: KeyCode] = {
        var map: [String: KeyCode] = [:]
        for (name, code) in kernelKeyTable {
            let lower = name.lowercased()
            map[lower] = KeyCode(rawValue: code)
            if lower.hasPrefix("key_") { map[String(lower.dropFirst(4)), default: KeyCode(rawValue: code)] = KeyCode(rawValue: code) }
        }
        for (alias, target) in aliases { map[alias] = map[target.lowercased()]! }
        return map
    }()

    static let byCode: [KeyCode: String] = {
        var map: [KeyCode: String] = [:]
        for (name, code) in kernelKeyTable where map[KeyCode(rawValue: code)] == nil { map[KeyCode(rawValue: code)] = name }
        return map
    }()

    /// Short names offered in "did you mean" hints: the unprefixed kernel names and aliases.
    static let suggestible: [String] = byName.keys.filter { !$0.hasPrefix("key_") }.sorted()
}
