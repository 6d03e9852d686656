import CXKBCommon

/// A keyboard layout compiled by libxkbcommon from the system's xkeyboard-config data, in one
/// active group.
///
/// Owns its C handles; use it on one thread (the daemon's loop, or a command).
public final class XKBKeymap {
    let context: OpaquePointer
    let keymap: OpaquePointer
    /// The group (layout of a multi-layout keymap) characters are typed in, from 0.
    public let group: UInt32
    /// A short name for logs and `status`: `de(nodeadkeys)`, or `x11 keymap` for a server's own.
    public let name: String

    /// Compiles the layout a report describes. Throws when XKB does not know the names or cannot
    /// parse the keymap text.
    public init(_ report: LayoutReport) throws(LayoutError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw LayoutError(message: "libxkbcommon could not start (out of memory?)", hint: nil)
        }
        // Our own error names the layout; libxkbcommon's messages on stderr would only repeat it.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        let compiled: OpaquePointer?
        let label: String
        switch report.description {
        case .names(let names):
            compiled = Self.compile(names, in: context)
            label = names.description
        case .keymap(let text):
            compiled = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
            label = "\(report.origin) keymap"
        }
        guard let compiled else {
            xkb_context_unref(context)
            if case .names(let names) = report.description {
                throw LayoutError(message: "XKB has no keyboard layout \"\(names)\"",
                                  hint: "use a name from `localectl list-x11-keymap-layouts` (variants: `localectl list-x11-keymap-variants de`), e.g. \"de\", \"fr(azerty)\", \"us(dvorak)\"")
            }
            throw LayoutError(message: "the \(report.origin) keymap could not be compiled", hint: nil)
        }
        self.context = context
        self.keymap = compiled
        let groups = xkb_keymap_num_layouts(compiled)
        self.group = min(UInt32(max(0, report.group)), groups > 0 ? groups - 1 : 0)
        self.name = groups > 1 ? "\(label), group \(self.group + 1)" : label
    }

    deinit {
        for case let table? in composeTables.values { xkb_compose_table_unref(table) }
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    private static func compile(_ names: LayoutNames, in context: OpaquePointer) -> OpaquePointer? {
        "evdev".withCString { rules in
            "pc105".withCString { model in
                names.layout.withCString { layout in
                    names.variant.withCString { variant in
                        names.options.withCString { options in
                            var rmlvo = xkb_rule_names(rules: rules, model: model, layout: layout,
                                                       variant: variant, options: options)
                            return xkb_keymap_new_from_names(context, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
    }

    /// A fresh keyboard state in this keymap's group, nothing pressed. The caller unrefs it.
    func makeState() -> OpaquePointer? {
        guard let state = xkb_state_new(keymap) else { return nil }
        xkb_state_update_mask(state, 0, 0, 0, 0, 0, group)
        return state
    }

    /// The compose table for `locale` (dead keys and Compose sequences), or nil if it has none.
    /// Loaded once per locale (parsing it takes milliseconds); the caller gets its own reference
    /// and unrefs it.
    func composeTable(locale: String) -> OpaquePointer? {
        if let cached = composeTables[locale] { return cached.map { xkb_compose_table_ref($0) } }
        var table: OpaquePointer?
        for candidate in [locale, "en_US.UTF-8"] where table == nil {
            table = xkb_compose_table_new_from_locale(context, candidate, XKB_COMPOSE_COMPILE_NO_FLAGS)
        }
        composeTables[locale] = .some(table)
        return table.map { xkb_compose_table_ref($0) }
    }

    private var composeTables: [String: OpaquePointer?] = [:]
}

/// A layout that cannot be used, with a hint.
public struct LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?
    public var description: String { hint.map { "\(message)\n   hint: \($0)" } ?? message }
}
