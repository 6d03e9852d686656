/// The keyboard layout a source says is in use: what the daemon compiles characters for.
///
/// Sources push reports (the X server's XKB extension, a compositor's IPC, systemd-localed, an
/// explicit option); nothing is queried on the key path.
public struct LayoutReport: Equatable, Sendable {
    /// How the layout is described.
    public enum Description: Equatable, Sendable {
        /// XKB names, compiled with libxkbcommon from the system's xkeyboard-config.
        case names(LayoutNames)
        /// A complete XKB keymap in text form (`xkb_keymap { ... }`), e.g. the X server's own.
        case keymap(String)
    }

    public var description: Description
    /// The active group (layout) of a multi-layout keymap, from 0.
    public var group: Int
    /// Where it came from, for `tap-uinput status` and the log: `"option"`, `"keymap"`, `"x11"`,
    /// `"sway"`, `"hyprland"`, `"gnome"`, `"kde"`, `"localed"`, `"default"`.
    public var origin: String

    public init(_ description: Description, group: Int = 0, origin: String) {
        self.description = description
        self.group = group
        self.origin = origin
    }

    /// `de(nodeadkeys)`, `us,de, group 2`, or `x11 keymap` for a keymap given as text.
    public var summary: String {
        switch description {
        case .names(let names): names.layout.contains(",") ? "\(names), group \(group + 1)" : names.description
        case .keymap: "\(origin) keymap"
        }
    }

    /// US QWERTY, used when nothing else says otherwise.
    public static let fallback = LayoutReport(.names(LayoutNames(layout: "us")), origin: "default")
}
