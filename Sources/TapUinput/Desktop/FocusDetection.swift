import Glibc

/// Picks the focus sources a session offers, from its environment.
///
/// The result is ordered by preference; the daemon starts the first whose
/// ``FocusSource/start(on:onChange:)`` does not throw:
/// 1. Hyprland: `HYPRLAND_INSTANCE_SIGNATURE`, sockets in `$XDG_RUNTIME_DIR/hypr/<sig>/`
///    (Hyprland ≥ 0.40) or `/tmp/hypr/<sig>/` (older).
/// 2. sway: `SWAYSOCK`; i3: `I3SOCK` (sway sets both to the same socket: one source).
/// 3. Other wlroots compositors: `WAYLAND_DISPLAY`, through `zwlr_foreign_toplevel_manager_v1`
///    (not on GNOME or KDE, which lack it). Also listed after sway/Hyprland as a fallback.
/// 4. X11: `DISPLAY`, but only when `WAYLAND_DISPLAY` is unset. Under a Wayland compositor
///    `DISPLAY` is Xwayland, whose `_NET_ACTIVE_WINDOW` only ever names X11 windows, so it
///    would report stale focus while a Wayland window is in front.
///
/// GNOME and KDE Plasma on Wayland offer no socket: there the shipped GNOME Shell extension or
/// KWin script pushes focus to the daemon's D-Bus method `SetFocus` (see `docs/focus.md`);
/// ``pushOnlyDesktop(environment:)`` names such a desktop so the daemon can say so.
public enum FocusDetection {
    /// The sources `environment` offers, best first; empty when none does.
    /// - Parameter fileExists: checks for a socket path (replaceable in tests).
    public static func availableSources(environment: [String: String],
                                        fileExists: (String) -> Bool = { access($0, F_OK) == 0 }) -> [FocusSource] {
        var sources: [FocusSource] = []
        if let signature = nonEmpty(environment["HYPRLAND_INSTANCE_SIGNATURE"]), !signature.contains("/") {
            var candidates: [String] = []
            if let runtime = nonEmpty(environment["XDG_RUNTIME_DIR"]) { candidates.append("\(runtime)/hypr/\(signature)") }
            candidates.append("/tmp/hypr/\(signature)")
            let directory = candidates.first { fileExists($0 + "/.socket2.sock") } ?? candidates[0]
            sources.append(HyprlandFocusSource(instanceDirectory: directory))
        }
        let swaySocket = nonEmpty(environment["SWAYSOCK"])
        if let swaySocket {
            sources.append(SwayFocusSource(socketPath: swaySocket, name: "sway"))
        }
        if let i3Socket = nonEmpty(environment["I3SOCK"]), i3Socket != swaySocket {
            sources.append(SwayFocusSource(socketPath: i3Socket, name: swaySocket == nil ? "i3" : "sway"))
        }
        if let wayland = nonEmpty(environment["WAYLAND_DISPLAY"]), pushOnlyDesktop(environment: environment) == nil {
            sources.append(WlrToplevelFocusSource(display: wayland))
        }
        if let display = nonEmpty(environment["DISPLAY"]), nonEmpty(environment["WAYLAND_DISPLAY"]) == nil {
            sources.append(X11FocusSource(display: display))
        }
        return sources
    }

    /// `"gnome"` or `"kde"` for a Wayland session of a desktop whose focus only arrives
    /// through its extension/script calling the daemon's D-Bus `SetFocus`; nil otherwise.
    public static func pushOnlyDesktop(environment: [String: String]) -> String? {
        guard nonEmpty(environment["WAYLAND_DISPLAY"]) != nil || environment["XDG_SESSION_TYPE"] == "wayland" else {
            return nil
        }
        let desktops = currentDesktops(environment: environment)
        if desktops.contains(where: { $0 == "gnome" || $0 == "ubuntu" || $0 == "gnome-classic" }) { return "gnome" }
        if desktops.contains("kde") { return "kde" }
        return nil
    }

    /// `XDG_CURRENT_DESKTOP`'s names, lower-cased (`["ubuntu", "gnome"]`, `["kde"]`).
    public static func currentDesktops(environment: [String: String]) -> [Substring] {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":")
    }

    /// This process's environment, for ``availableSources(environment:fileExists:)``.
    public static func processEnvironment() -> [String: String] { ConfigPaths.processEnvironment() }

    private static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
