import FoundationEssentials

/// The parts of sway/i3 IPC JSON that focus tracking reads.
///
/// A container's app id is `app_id` for a Wayland-native window (sway) and
/// `window_properties.class` for an X11 window (Xwayland under sway, every window under i3).
struct SwayNode: Decodable {
    struct WindowProperties: Decodable {
        var `class`: String?
        var instance: String?
        var title: String?
    }

    var id: Int
    var type: String?
    var name: String?
    var focused: Bool?
    var app_id: String?
    /// sway: `"xdg_shell"` or `"xwayland"` on windows only.
    var shell: String?
    /// i3: the X11 window id on windows only.
    var window: Int?
    var window_properties: WindowProperties?
    var nodes: [SwayNode]?
    var floating_nodes: [SwayNode]?

    /// Whether this is a window (not a workspace, output or split container).
    var isWindow: Bool {
        app_id != nil || shell != nil || window != nil || window_properties != nil
    }

    /// The focus this window stands for.
    func focusInfo(source: String) -> FocusInfo {
        let app = app_id ?? window_properties?.class ?? ""
        return FocusInfo(appID: app, title: name ?? window_properties?.title ?? "",
                         source: source, instance: window_properties?.instance ?? "")
    }

    /// The focused node below (or at) this one, depth first.
    func focusedNode() -> SwayNode? {
        if focused == true { return self }
        for child in (nodes ?? []) + (floating_nodes ?? []) {
            if let f = child.focusedNode() { return f }
        }
        return nil
    }
}

/// A `window` event: `change` is `new`, `close`, `focus`, `title`, `fullscreen_mode`,
/// `move`, `floating`, `urgent` or `mark`.
struct SwayWindowEvent: Decodable {
    var change: String
    var container: SwayNode
}

/// The reply to SUBSCRIBE.
struct SwaySuccessReply: Decodable {
    var success: Bool
}
