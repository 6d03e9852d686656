import CXKBCommon
import ChordMap

/// Inverts a compiled XKB keymap: for each character, the keystrokes that type it in the
/// keymap's group.
///
/// For every key and shift level, libxkbcommon says which keysym it produces and which modifier
/// masks select the level; the modifier keys that set each mask are found by pressing them in a
/// fresh keyboard state, so AltGr (ISO_Level3_Shift), Shift and the like come from the layout,
/// not from a table. The cheapest way wins: fewest modifiers, then the lowest level; keypad keys
/// only when nothing else types the character (terminals in keypad application mode read them as
/// other keys); keys X11 cannot carry (keycode above 255) only when nothing else, not even a
/// dead key, does. Characters only a dead key reaches (`é` on `us(intl)`) become the dead key then the
/// base character, found by feeding both to the locale's compose table.
struct LayoutInversion {
    let xkb: XKBKeymap
    private var best: [Character: Candidate] = [:]
    private var deadKeys: [(sym: xkb_keysym_t, stroke: KeyStroke, rank: Int)] = []
    private var symbols: [Character: xkb_keysym_t] = [:]

    private struct Candidate {
        var strokes: [KeyStroke]
        var rank: Int
    }

    init(_ xkb: XKBKeymap) { self.xkb = xkb }

    /// Every character the layout types, with its keystrokes. `composeLocale` picks the compose
    /// table dead keys are resolved with.
    mutating func strokes(composeLocale: String) -> [Character: [KeyStroke]] {
        let modifierKeys = findModifierKeys()
        let km = xkb.keymap
        let group = xkb.group
        var masks = [xkb_mod_mask_t](repeating: 0, count: 16)
        for code in xkb_keymap_min_keycode(km)...xkb_keymap_max_keycode(km) where code >= 8 && code - 8 < 0x2ff {
            let key = KeyCode(rawValue: UInt16(code - 8))
            if key.isModifier { continue }
            for level in 0..<xkb_keymap_num_levels_for_key(km, code, group) {
                var syms: UnsafePointer<xkb_keysym_t>?
                guard xkb_keymap_key_get_syms_by_level(km, code, group, level, &syms) == 1, let sym = syms?.pointee else { continue }
                let count = xkb_keymap_key_get_mods_for_level(km, code, group, level, &masks, masks.count)
                guard let modifiers = (0..<count).compactMap({ modifiers(for: masks[$0], from: modifierKeys) })
                    .min(by: { $0.count < $1.count }) else { continue }
                let stroke = KeyStroke(key: key, modifiers: modifiers)
                // X11 carries keycodes up to 255: a key beyond (KEY_EURO on us, 443) never reaches
                // an X application, so it is the last resort, after any other key or dead key.
                let beyondX11 = code > 255 ? 100_000_000 : 0
                let rank = beyondX11 + (Self.isKeypad(sym) ? 1_000_000 : 0) + modifiers.count * 10_000 + Int(level) * 1_000 + Int(code)
                if Self.isDeadKey(sym) {
                    deadKeys.append((sym, stroke, rank))
                } else if let c = Self.character(for: sym) {
                    offer(c, [stroke], rank: rank)
                    if best[c]?.rank == rank { symbols[c] = sym }
                }
            }
        }
        composeDeadKeys(locale: composeLocale)
        return best.mapValues(\.strokes)
    }

    private mutating func offer(_ c: Character, _ strokes: [KeyStroke], rank: Int) {
        if let old = best[c], old.rank <= rank { return }
        best[c] = Candidate(strokes: strokes, rank: rank)
    }

    /// Dead key + base character pairs whose composition the layout has no key of its own for.
    private mutating func composeDeadKeys(locale: String) {
        guard !deadKeys.isEmpty, let table = xkb.composeTable(locale: locale) else { return }
        defer { xkb_compose_table_unref(table) }
        guard let state = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS) else { return }
        defer { xkb_compose_state_unref(state) }
        let bases = best.filter { $0.value.strokes.count == 1 }.compactMap { c, candidate in symbols[c].map { (c, $0, candidate) } }
            .sorted { $0.2.rank < $1.2.rank }
        var buffer = [CChar](repeating: 0, count: 64)
        for dead in deadKeys.sorted(by: { $0.rank < $1.rank }) {
            for (_, baseSym, base) in bases {
                xkb_compose_state_reset(state)
                xkb_compose_state_feed(state, dead.sym)
                xkb_compose_state_feed(state, baseSym)
                guard xkb_compose_state_get_status(state) == XKB_COMPOSE_COMPOSED else { continue }
                let n = xkb_compose_state_get_utf8(state, &buffer, buffer.count)
                guard n > 0, n < buffer.count else { continue }
                let text = String(decoding: buffer[..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard text.count == 1, let c = text.first, best[c] == nil || best[c]!.strokes.count > 1 else { continue }
                offer(c, [dead.stroke] + base.strokes, rank: 10_000_000 + dead.rank + base.rank)
            }
        }
    }

    /// The modifier key that sets each single modifier bit in this group: pressed alone in a
    /// fresh state, which bit does it set? Earlier keys in `KeyCode.levelModifierOrder` win.
    private func findModifierKeys() -> [xkb_mod_mask_t: KeyCode] {
        var found: [xkb_mod_mask_t: KeyCode] = [:]
        for key in KeyCode.levelModifierOrder {
            guard let state = xkb.makeState() else { continue }
            defer { xkb_state_unref(state) }
            xkb_state_update_key(state, UInt32(key.rawValue) + 8, XKB_KEY_DOWN)
            let mask = xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED)
            if mask != 0, mask & (mask - 1) == 0, found[mask] == nil { found[mask] = key }
        }
        return found
    }

    /// The keys that together set exactly `mask`, or nil when one of its bits has no key, or it
    /// needs Control (which makes a shortcut, not a character).
    private func modifiers(for mask: xkb_mod_mask_t, from keys: [xkb_mod_mask_t: KeyCode]) -> [KeyCode]? {
        let control = xkb_keymap_mod_get_index(xkb.keymap, XKB_MOD_NAME_CTRL)
        if control != XKB_MOD_INVALID, mask & (1 << control) != 0 { return nil }
        var result: [KeyCode] = []
        var rest = mask
        while rest != 0 {
            let bit = rest & (~rest &+ 1)
            guard let key = keys[bit] else { return nil }
            result.append(key)
            rest &= ~bit
        }
        return result
    }

    /// The character a keysym types: printable ones, Return as a newline, Tab; nil otherwise.
    static func character(for sym: xkb_keysym_t) -> Character? {
        if sym == 0xff0d { return "\n" }    // XKB_KEY_Return
        let u = xkb_keysym_to_utf32(sym)
        guard u == 0x09 || (u >= 0x20 && u != 0x7f && !(0x80..<0xa0).contains(u)), let scalar = Unicode.Scalar(u) else { return nil }
        return Character(scalar)
    }

    /// XKB_KEY_KP_Space ... XKB_KEY_KP_Equal.
    static func isKeypad(_ sym: xkb_keysym_t) -> Bool { (0xff80...0xffbd).contains(sym) }

    static func isDeadKey(_ sym: xkb_keysym_t) -> Bool { (0xfe50...0xfe93).contains(sym) }
}

extension KeyCode {
    /// Modifier keys tried for shift levels, most usual first: Shift, AltGr (ISO_Level3_Shift on
    /// most layouts), then the others, in case a layout puts a level modifier there.
    static let levelModifierOrder: [KeyCode] = [.leftShift, .rightAlt, .rightShift, .rightCtrl, .leftAlt, .leftMeta, .rightMeta, .leftCtrl]
}
