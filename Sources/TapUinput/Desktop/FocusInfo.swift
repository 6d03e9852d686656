/// Which application has the keyboard focus, as one focus source sees it.
///
/// `appID` is what per-application keymaps match on:
/// - X11 and Xwayland: the *class* part of `WM_CLASS` (`"Firefox"`, `"XTerm"`);
/// - Wayland (sway, Hyprland, GNOME, KDE): the toplevel's app id (`"org.gnome.Nautilus"`, `"foot"`).
///
/// An empty `appID` means "no window has focus" (an empty workspace, the desktop).
/// Values are compared whole: two infos that differ only in `title` are different focus
/// states, so a title change is reported (keymaps may match on titles).
public struct FocusInfo: Equatable, Sendable, CustomStringConvertible {
    /// The application id (see the type's discussion); empty when nothing has focus.
    public var appID: String
    /// The window title (UTF-8), possibly empty.
    public var title: String
    /// The name of the ``FocusSource`` that reported it (`"x11"`, `"sway"`, ...).
    public var source: String
    /// The X11 `WM_CLASS` instance part (`"navigator"` for Firefox), when the window has one;
    /// empty otherwise. Lets a keymap tell apart two windows of one class.
    public var instance: String

    public init(appID: String, title: String, source: String, instance: String = "") {
        self.appID = appID
        self.title = title
        self.source = source
        self.instance = instance
    }

    /// The "nothing has focus" value for `source`.
    public static func none(source: String) -> FocusInfo {
        FocusInfo(appID: "", title: "", source: source)
    }

    public var description: String {
        let inst = instance.isEmpty ? "" : " (\(instance))"
        return "\(source): \(appID.isEmpty ? "<none>" : appID)\(inst) \"\(title)\""
    }
}
