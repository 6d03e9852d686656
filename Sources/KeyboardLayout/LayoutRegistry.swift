import CXKBCommon

/// Layout descriptions back to XKB names, from xkeyboard-config's registry (libxkbregistry).
///
/// Compositors report the active layout by its description (sway's `xkb_active_layout_name`,
/// Hyprland's `activelayout` event: `"German"`, `"French (AZERTY)"`), the name a keymap's
/// symbols give their group. The registry lists the same descriptions with their layout and
/// variant, so ``names(forDescription:)`` turns one back into something libxkbcommon compiles.
public enum LayoutRegistry {
    /// The layout and variant whose description is `description`; nil when the registry has
    /// none (a custom layout), or cannot be read.
    public static func names(forDescription description: String) -> LayoutNames? {
        byDescription[description]
    }

    /// Every layout and variant of the evdev rules (with the exotic ones: a user may run any),
    /// read once, on the first lookup (tens of milliseconds), never on the key path.
    private static let byDescription: [String: LayoutNames] = {
        guard let context = rxkb_context_new(RXKB_CONTEXT_LOAD_EXOTIC_RULES) else { return [:] }
        defer { rxkb_context_unref(context) }
        guard rxkb_context_parse_default_ruleset(context) else { return [:] }
        var table: [String: LayoutNames] = [:]
        var layout = rxkb_layout_first(context)
        while let current = layout {
            if let description = rxkb_layout_get_description(current), let name = rxkb_layout_get_name(current) {
                let names = LayoutNames(layout: String(cString: name),
                                        variant: rxkb_layout_get_variant(current).map { String(cString: $0) } ?? "")
                // The first entry wins: base layouts come before the exotic duplicates.
                if table[String(cString: description)] == nil { table[String(cString: description)] = names }
            }
            layout = rxkb_layout_next(current)
        }
        return table
    }()
}
