import CXKBCommon
import ChordMap

/// The text an application would receive from key presses on a layout: a libxkbcommon keyboard
/// state (Shift, AltGr, Caps Lock) and the locale's compose table (dead keys), as toolkits do.
/// Enter is a newline, Backspace deletes the last character, keys pressed with Ctrl, Alt or
/// Super type nothing (they are shortcuts).
///
/// The simulator's `--text` mode and the layout tests use it to read back what was typed.
public struct XKBTextDecoder: KeyTextDecoder {
    private let handles: Handles
    public private(set) var text = ""

    /// Starts with nothing pressed, in `xkb`'s group.
    public init(_ xkb: XKBKeymap, composeLocale: String = CharacterMap.environmentLocale) {
        handles = Handles(xkb: xkb, composeLocale: composeLocale)
    }

    public mutating func key(_ key: KeyCode, pressed: Bool) {
        guard let state = handles.state else { return }
        let code = UInt32(key.rawValue) + 8
        defer { xkb_state_update_key(state, code, pressed ? XKB_KEY_DOWN : XKB_KEY_UP) }
        guard pressed, !key.isModifier else { return }
        let shortcut = ["Control", "Mod1", "Mod4"].contains(where: { (name: String) in
            xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0
        })
        if shortcut { return }
        let sym = xkb_state_key_get_one_sym(state, code)
        if let compose = handles.compose, xkb_compose_state_feed(compose, sym) == XKB_COMPOSE_FEED_ACCEPTED {
            switch xkb_compose_state_get_status(compose) {
            case XKB_COMPOSE_COMPOSING: return
            case XKB_COMPOSE_CANCELLED: xkb_compose_state_reset(compose); return
            case XKB_COMPOSE_COMPOSED:
                text += Self.utf8 { xkb_compose_state_get_utf8(compose, $0, $1) }
                xkb_compose_state_reset(compose)
                return
            default: break
            }
        }
        switch sym {
        case 0xff08: if !text.isEmpty { text.removeLast() }    // BackSpace
        case 0xff0d, 0xff8d: text += "\n"                      // Return, KP_Enter
        default:
            let typed = Self.utf8 { xkb_state_key_get_utf8(state, code, $0, $1) }
            if typed.unicodeScalars.allSatisfy({ $0 == "\t" || $0.value >= 0x20 && $0.value != 0x7f }) { text += typed }
        }
    }

    private static func utf8(_ read: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) }
        guard n > 0, Int(n) < buffer.count else { return "" }
        return String(decoding: buffer[..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The C state, released with the decoder.
    private final class Handles {
        let xkb: XKBKeymap
        let state: OpaquePointer?
        let compose: OpaquePointer?
        let table: OpaquePointer?

        init(xkb: XKBKeymap, composeLocale: String) {
            self.xkb = xkb
            state = xkb.makeState()
            table = xkb.composeTable(locale: composeLocale)
            compose = table.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
        }

        deinit {
            if let compose { xkb_compose_state_unref(compose) }
            if let table { xkb_compose_table_unref(table) }
            if let state { xkb_state_unref(state) }
        }
    }
}
