import CWlrToplevel
import EventLoop
import Logging

/// Focus from any wlroots-based compositor (river, labwc, Wayfire, sway, Hyprland, ...)
/// through the `zwlr_foreign_toplevel_manager_v1` protocol that taskbars use.
///
/// The compositor sends every toplevel's app id, title and state (with "activated" for the
/// focused one) when the manager is bound and on every change; the focused toplevel is the
/// activated one. A compositor without the protocol (GNOME, KDE) is detected from the registry
/// on the loop, logged once, and the source then stays idle (``isUnsupported``).
///
/// Events are read and dispatched without blocking (`wl_display_prepare_read` /
/// `read_events` / `dispatch_pending`, then a flush). A batch of events is applied whole
/// before the focus is read, so the "old window deactivated, new one activated" pair never
/// shows as a moment of no focus.
public final class WlrToplevelFocusSource: DesktopSource {
    /// The Wayland display: a name (`wayland-1`), an absolute socket path, or nil for
    /// `$WAYLAND_DISPLAY`.
    public let display: String?
    /// Whether the Wayland connection is up (for status output and tests).
    public var isConnected: Bool { client != nil }
    /// Set when the compositor turned out not to offer the protocol.
    public private(set) var isUnsupported = false

    private var client: OpaquePointer?
    private var watch: EventLoop.Watch?

    /// - Parameter noneGraceMilliseconds: how long "nothing activated" must last to be reported.
    public init(display: String? = nil, retry: FocusRetryPolicy? = .standard, noneGraceMilliseconds: Int = 150) {
        self.display = display
        super.init(name: "wlroots", retry: retry, noneGraceMilliseconds: noneGraceMilliseconds)
    }

    /// Unregisters from the loop: its handlers must not outlive the source.
    deinit { stop() }

    override var peerDescription: String { "Wayland display \(display ?? "$WAYLAND_DISPLAY")" }

    override func connect() throws(FocusSourceError) {
        guard let loop else { return }
        guard let c = tap_toplevels_connect(display) else {
            throw FocusSourceError(source: name, message: "cannot connect to Wayland display \(display ?? "$WAYLAND_DISPLAY")")
        }
        client = c
        isUnsupported = false
        watch = loop.watch(fd: tap_toplevels_fd(c), events: .readable) { [unowned self] _ in self.readable() }
        loop.post { [weak self] in self?.readable() }   // sends get_registry and sync
    }

    override func disconnect() {
        if let watch, let loop { loop.remove(watch) }
        watch = nil
        if let client { tap_toplevels_destroy(client) }
        client = nil
    }

    private func readable() {
        guard let c = client else { return }
        guard tap_toplevels_dispatch(c) == 0 else {
            lost("the connection failed")
            return
        }
        switch Int(tap_toplevels_status(c)) {
        case Int(TAP_TOPLEVELS_UNSUPPORTED.rawValue):
            log.warning("wlroots: the compositor does not offer zwlr_foreign_toplevel_manager_v1; no focus from it")
            isUnsupported = true
            disconnect()
            return
        case Int(TAP_TOPLEVELS_READY.rawValue):
            reconnector.succeeded()
        default:
            return
        }
        guard tap_toplevels_take_changed(c) != 0 else { return }
        var appID: UnsafePointer<CChar>?
        var title: UnsafePointer<CChar>?
        if tap_toplevels_focused(c, &appID, &title) != 0, let appID, let title {
            report(FocusInfo(appID: String(cString: appID), title: String(cString: title), source: name))
        } else {
            report(.none(source: name))
        }
    }
}
