import CXCB
import EventLoop
import Glibc
import KeyboardLayout
import Logging

/// Focus and keyboard layout from an X server (or Xwayland) through libxcb, the EWMH way.
///
/// Watches `PropertyNotify` on the root window for `_NET_ACTIVE_WINDOW` (maintained by every
/// EWMH window manager) and on the active window for `_NET_WM_NAME`, `WM_NAME` and
/// `WM_CLASS`. The app id is the class part of `WM_CLASS` (the instance part goes to
/// ``FocusInfo/instance``); the title is `_NET_WM_NAME` (UTF-8), else `WM_NAME` (Latin-1).
///
/// Nothing here waits for the server: every request's reply is collected with
/// `xcb_poll_for_reply` when the connection's fd becomes readable, so a stuck X server can
/// delay focus reports but never the loop. Replies for a window that lost the focus in the
/// meantime are dropped (a generation counter).
///
/// The layout comes over the same connection (`X11FocusSource+Layout.swift`): the XKB names in
/// the root's `_XKB_RULES_NAMES` and the active group from XKB `StateNotify` events.
public final class X11FocusSource: DesktopSource, LayoutReporting {
    /// The display to open, or nil for `$DISPLAY` (read by libxcb).
    public let display: String?
    /// Whether the X connection is up (for status output and tests).
    public var isConnected: Bool { connection != nil }

    /// What the layout is made of as far as it has been read (names, group, XKB event base).
    var xkb = X11LayoutState()

    private(set) var connection: OpaquePointer?
    private var watch: EventLoop.Watch?
    private(set) var root: xcb_window_t = 0
    private(set) var atoms = X11Atoms()
    /// Requests whose replies are still due, oldest first (X replies arrive in order).
    private var pending: [(sequence: UInt32, handle: (UnsafeMutableRawPointer?) -> Void)] = []
    private var activeWindow: xcb_window_t = 0
    private var latestActiveRequest: UInt32 = 0
    private var generation = 0

    /// - Parameters:
    ///   - display: `":0"`-style display name; nil uses `$DISPLAY`.
    ///   - retry: how to reconnect after the X server goes away; nil: don't.
    ///   - noneGraceMilliseconds: how long "no active window" must last to be reported; a
    ///     window gaining the focus is always reported at once.
    public init(display: String? = nil, retry: FocusRetryPolicy? = .standard, noneGraceMilliseconds: Int = 150) {
        self.display = display
        super.init(name: "x11", retry: retry, noneGraceMilliseconds: noneGraceMilliseconds)
    }

    /// Unregisters from the loop: its handlers must not outlive the source.
    deinit { stop() }

    override var peerDescription: String { "display \(display ?? "$DISPLAY")" }

    // MARK: Connection

    override func connect() throws(FocusSourceError) {
        guard let loop else { return }
        var screen: Int32 = 0
        guard let c = xcb_connect(display, &screen) else {
            throw FocusSourceError(source: name, message: "xcb_connect returned nothing")
        }
        if xcb_connection_has_error(c) != 0 {
            xcb_disconnect(c)
            throw FocusSourceError(source: name, message: "cannot open display \(display ?? "$DISPLAY")")
        }
        var it = xcb_setup_roots_iterator(xcb_get_setup(c))
        for _ in 0..<max(0, screen) where it.rem > 1 { xcb_screen_next(&it) }
        guard let screenData = it.data else {
            xcb_disconnect(c)
            throw FocusSourceError(source: name, message: "display has no screen \(screen)")
        }
        connection = c
        root = screenData.pointee.root
        activeWindow = 0
        pending = []
        atoms = X11Atoms()
        xkb = X11LayoutState()
        // Asked now so its answer is in before the atoms' (X replies come in order): reading it
        // in startLayoutTracking() then never waits for the server.
        if onLayoutChange != nil { xcb_prefetch_extension_data(c, cxcb_xkb_extension()) }
        watch = loop.watch(fd: xcb_get_file_descriptor(c), events: .readable) { [unowned self] _ in
            self.readable()
        }
        selectPropertyChanges(on: root)
        // Atoms first; the root's _NET_ACTIVE_WINDOW is read once they are known.
        let names = X11Atoms.names
        var remaining = names.count
        for atomName in names {
            let cookie = atomName.withCString { xcb_intern_atom(c, 0, UInt16(strlen($0)), $0) }
            expect(cookie.sequence) { [unowned self] reply in
                if let reply {
                    let atom = reply.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom
                    self.atoms.set(atomName, atom)
                }
                remaining -= 1
                if remaining == 0 {
                    self.reconnector.succeeded()
                    self.requestActiveWindow()
                    self.startLayoutTracking()
                }
            }
        }
        // Flush and collect through the same path as fd events (see readable()).
        loop.post { [weak self] in self?.readable() }
    }

    override func disconnect() {
        reporter.cancelPendingNone()
        if let watch, let loop { loop.remove(watch) }
        watch = nil
        if let connection { xcb_disconnect(connection) }
        connection = nil
        pending = []
        activeWindow = 0
        generation += 1
    }

    // MARK: Reading the connection

    func expect(_ sequence: UInt32, _ handle: @escaping (UnsafeMutableRawPointer?) -> Void) {
        pending.append((sequence, handle))
    }

    /// Drains everything libxcb can give without blocking: events and due replies (in order).
    ///
    /// libxcb reads the socket inside `xcb_flush` (while it waits to write), `xcb_poll_for_event`
    /// and `xcb_poll_for_reply`; what one of them reads sits in libxcb's queue, where epoll will
    /// not report it again. A reply read by the event poll, or an event read by the reply poll,
    /// would wait there until unrelated traffic arrives (a daemon that never learned the focus or
    /// the layout, seen under load in the VM). So each round reads with the event poll, takes
    /// the replies, then takes the events the reply poll queued, and rounds repeat while any
    /// found something; the last round's reads found the socket empty.
    private func readable() {
        guard let c = connection else { return }
        var progress = true
        while progress {
            xcb_flush(c)
            progress = false
            guard drainEvents(xcb_poll_for_event, &progress) else { return }         // reads the socket
            while let first = pending.first {
                var reply: UnsafeMutableRawPointer?
                var error: UnsafeMutablePointer<xcb_generic_error_t>?
                guard xcb_poll_for_reply(c, first.sequence, &reply, &error) != 0 else { break }   // may read too
                pending.removeFirst()
                progress = true
                first.handle(reply)   // nil on an X error (e.g. BadWindow for a vanished window)
                free(reply)
                free(error)
                if connection == nil { return }
            }
            guard drainEvents(xcb_poll_for_queued_event, &progress) else { return }  // what the reply poll read
        }
        if xcb_connection_has_error(c) != 0 {
            lost("connection error \(xcb_connection_has_error(c))")
        }
    }

    /// Handles every event `poll` gives; false when the connection went away meanwhile.
    private func drainEvents(_ poll: (OpaquePointer?) -> UnsafeMutablePointer<xcb_generic_event_t>?, _ progress: inout Bool) -> Bool {
        while let c = connection, let event = poll(c) {
            progress = true
            handle(event)
            free(event)
        }
        return connection != nil
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let type = event.pointee.response_type & 0x7f
        if xkb.eventBase != 0 && type == xkb.eventBase {
            handleXKB(UnsafeRawPointer(event))
            return
        }
        guard type == XCB_PROPERTY_NOTIFY else { return }
        let notify = UnsafeRawPointer(event).load(as: xcb_property_notify_event_t.self)
        if notify.window == root && notify.atom == atoms.xkbRulesNames && atoms.xkbRulesNames != 0 {
            requestLayoutNames()
        } else if notify.window == root && notify.atom == atoms.netActiveWindow && atoms.netActiveWindow != 0 {
            requestActiveWindow()
        } else if notify.window == activeWindow && activeWindow != 0 && atoms.isTitleOrClass(notify.atom) {
            requestWindowInfo(activeWindow)
        }
    }

    // MARK: Requests

    private func selectPropertyChanges(on window: xcb_window_t, enabled: Bool = true) {
        guard let c = connection else { return }
        var mask: UInt32 = enabled ? XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue : 0
        xcb_change_window_attributes(c, window, XCB_CW_EVENT_MASK.rawValue, &mask)
    }

    private func requestActiveWindow() {
        guard let c = connection, atoms.netActiveWindow != 0 else { return }
        let cookie = xcb_get_property(c, 0, root, atoms.netActiveWindow, XCB_ATOM_WINDOW.rawValue, 0, 1)
        latestActiveRequest = cookie.sequence
        expect(cookie.sequence) { [unowned self] reply in
            // A newer read is on its way: this answer is stale. Skipping it also hides the
            // brief "None" some window managers set between two windows.
            guard cookie.sequence == self.latestActiveRequest else { return }
            let value = X11Property(reply)
            self.activeWindowChanged(to: value?.window ?? 0)
        }
    }

    private func activeWindowChanged(to window: xcb_window_t) {
        if window != activeWindow {
            // Stop listening to the old window (harmless if it is gone: the error is ignored).
            if activeWindow != 0 { selectPropertyChanges(on: activeWindow, enabled: false) }
            activeWindow = window
            if window != 0 { selectPropertyChanges(on: window) }
        }
        if window == 0 {
            // Window managers (openbox, for one) set None for a moment while they move the
            // focus between two windows: the reporter holds "nothing" back until it lasts.
            generation += 1
            report(.none(source: name))
        } else {
            reporter.cancelPendingNone()
            requestWindowInfo(window)
        }
    }

    /// Reads `WM_CLASS`, `_NET_WM_NAME` and `WM_NAME` of `window` and reports them together.
    private func requestWindowInfo(_ window: xcb_window_t) {
        guard let c = connection else { return }
        generation += 1
        let gen = generation
        var wmClass: X11Property?, netName: X11Property?, wmName: X11Property?
        let classCookie = xcb_get_property(c, 0, window, XCB_ATOM_WM_CLASS.rawValue, XCB_ATOM_STRING.rawValue, 0, 256)
        expect(classCookie.sequence) { wmClass = X11Property($0) }
        if atoms.netWMName != 0 {
            let cookie = xcb_get_property(c, 0, window, atoms.netWMName, 0 /* AnyPropertyType */, 0, 2048)
            expect(cookie.sequence) { netName = X11Property($0) }
        }
        let nameCookie = xcb_get_property(c, 0, window, XCB_ATOM_WM_NAME.rawValue, 0, 0, 2048)
        expect(nameCookie.sequence) { [unowned self] reply in
            wmName = X11Property(reply)
            guard gen == self.generation, window == self.activeWindow else { return }
            let parts = wmClass?.strings ?? []
            let title = netName.flatMap { $0.bytes.isEmpty ? nil : $0.utf8 } ?? wmName?.text(utf8Type: self.atoms.utf8String) ?? ""
            self.report(FocusInfo(appID: parts.count > 1 ? parts[1] : "", title: title,
                                  source: self.name, instance: parts.first ?? ""))
        }
    }

}
