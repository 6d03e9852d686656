import CLinux
import CXCB
import Glibc
@testable import TapUinput

/// A real `Xvfb` with a real EWMH window manager (openbox, or i3 with its IPC socket), and a
/// client connection of the test's own that creates, renames and activates real top-level
/// windows.
///
/// The client side uses plain blocking libxcb calls: it is the test driver, not the code
/// under test.
final class X11Harness {
    let dir: String
    private(set) var display = ""
    private var xvfb: TestProcess?
    private var wm: TestProcess?
    private var client: OpaquePointer?
    private var root: xcb_window_t = 0
    private var visual: xcb_visualid_t = 0

    /// The window managers the harness can run.
    enum WindowManager { case openbox, i3 }
    let windowManager: WindowManager
    /// i3's IPC socket (``WindowManager/i3`` only).
    var i3Socket: String { dir + "/i3.sock" }

    /// - Parameter fixedDisplay: start on a display of our own choosing, far from the low
    ///   numbers `-displayfd` hands out, so that a test which restarts the server on the same
    ///   display does not find it taken by a parallel test's Xvfb meanwhile.
    init(windowManager: WindowManager = .openbox, fixedDisplay: Bool = false) throws {
        self.windowManager = windowManager
        try requireProgram("Xvfb")
        try requireProgram(windowManager == .openbox ? "openbox" : "i3")
        dir = try makeTemporaryDirectory("focus-x11")
        try writeFile(dir + "/i3.config", """
            ipc-socket \(dir)/i3.sock
            focus_on_window_activation focus
            default_border none

            """)
        try launch(display: fixedDisplay ? Self.freeHighDisplay() : nil)
    }

    /// A display number in 200...999 without a lock file, starting from one derived from the
    /// pid so that concurrent test processes tend to pick different ones.
    private static func freeHighDisplay() -> String {
        var n = 200 + Int(getpid()) % 700
        while fileExists("/tmp/.X\(n)-lock") || fileExists("/tmp/.X11-unix/X\(n)") { n = n >= 999 ? 200 : n + 1 }
        return ":\(n)"
    }

    var environment: [String: String] { ["PATH": testPath, "HOME": dir, "DISPLAY": display] }

    /// Starts Xvfb (on `display`, or a free display it picks with `-displayfd`), then the
    /// window manager, and waits until it has claimed the screen (`_NET_SUPPORTING_WM_CHECK`)
    /// and focused a probe window.
    func launch(display requested: String?) throws {
        var fds: [Int32] = [0, 0]
        guard clinux_pipe2(&fds, O_CLOEXEC) == 0 else { throw TestFailure("pipe2") }
        defer { close(fds[0]) }
        var argv = ["Xvfb"]
        if let requested { argv.append(requested) }
        argv += ["-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1024x768x24"]
        do {
            xvfb = try TestProcess(argv, environment: ["PATH": testPath], logPath: dir + "/xvfb.log", passFD: fds[1])
        } catch { close(fds[1]); throw error }
        close(fds[1])
        var pfd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        var number = [UInt8](repeating: 0, count: 16)
        guard poll(&pfd, 1, 10_000) == 1, read(fds[0], &number, 15) > 0 else {
            throw TestFailure("Xvfb did not start: \(readFile(dir + "/xvfb.log"))")
        }
        display = ":" + String(decoding: number.prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)

        var screen: Int32 = 0
        guard let c = xcb_connect(display, &screen), xcb_connection_has_error(c) == 0 else {
            throw TestFailure("test client cannot connect to \(display)")
        }
        client = c
        let s = xcb_setup_roots_iterator(xcb_get_setup(c)).data!.pointee
        root = s.root
        visual = s.root_visual

        let wmArgv = windowManager == .openbox ? ["openbox", "--sm-disable"] : ["i3", "-c", dir + "/i3.config"]
        wm = try TestProcess(wmArgv, environment: environment, logPath: dir + "/wm.log")
        let check = atom("_NET_SUPPORTING_WM_CHECK")
        guard waitUntil(timeoutMilliseconds: 10_000, { self.property(self.root, check) != nil }) else {
            throw TestFailure("\(windowManager) did not manage the screen: \(readFile(dir + "/wm.log"))")
        }
        // The window manager announces itself before it handles map requests; a window mapped in that
        // gap is never managed. So wait until it has focused a probe window, which stays
        // (openbox leaves _NET_ACTIVE_WINDOW on a destroyed last window, so a probe that
        // went away would leave a dangling active window behind).
        let active = atom("_NET_ACTIVE_WINDOW")
        let probe = createWindow(instance: "probe", class: "Probe", title: "probe")
        let probeBytes = withUnsafeBytes(of: probe) { Array($0) }
        let managed = waitUntil(timeoutMilliseconds: 10_000) {
            if self.property(self.root, active) == probeBytes { return true }
            // Not yet running: retry the map request (a no-op once managed).
            xcb_map_window(self.client, probe); xcb_flush(self.client)
            return false
        }
        guard managed else { throw TestFailure("\(windowManager) never focused a window: \(readFile(dir + "/wm.log"))") }
    }

    /// What the source reports for the probe window ``launch(display:)`` leaves focused.
    static let probe = FocusInfo(appID: "Probe", title: "probe", source: "x11", instance: "probe")

    /// Kills the window manager and Xvfb; the test client connection dies with them.
    func killServer() {
        if let client { xcb_disconnect(client) }
        client = nil
        wm?.terminate()
        xvfb?.terminate()
        wm = nil
        xvfb = nil
    }

    func atom(_ name: String) -> xcb_atom_t {
        let cookie = xcb_intern_atom(client, 0, UInt16(name.utf8.count), name)
        let reply = xcb_intern_atom_reply(client, cookie, nil)
        defer { free(reply) }
        return reply?.pointee.atom ?? 0
    }

    private func property(_ window: xcb_window_t, _ atom: xcb_atom_t) -> [UInt8]? {
        let cookie = xcb_get_property(client, 0, window, atom, 0, 0, 1024)
        guard let reply = xcb_get_property_reply(client, cookie, nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != 0 else { return nil }
        let n = Int(xcb_get_property_value_length(reply))
        return Array(UnsafeRawBufferPointer(start: xcb_get_property_value(reply), count: n))
    }

    /// Creates and maps a top-level window with `WM_CLASS` `instance\0class\0` and either a
    /// UTF-8 `_NET_WM_NAME` or, when `latin1Title` is given, only a Latin-1 `WM_NAME`.
    @discardableResult
    func createWindow(instance: String, class cls: String, title: String? = nil, latin1Title: [UInt8]? = nil) -> xcb_window_t {
        let w = xcb_generate_id(client)
        xcb_create_window(client, 0, w, root, 10, 10, 200, 100, 0,
                          UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), visual, 0, nil)
        let wmClass = Array(instance.utf8) + [0] + Array(cls.utf8) + [0]
        xcb_change_property(client, UInt8(XCB_PROP_MODE_REPLACE.rawValue), w, XCB_ATOM_WM_CLASS.rawValue,
                            XCB_ATOM_STRING.rawValue, 8, UInt32(wmClass.count), wmClass)
        if let title { setTitle(w, title) }
        if let latin1Title {
            xcb_change_property(client, UInt8(XCB_PROP_MODE_REPLACE.rawValue), w, XCB_ATOM_WM_NAME.rawValue,
                                XCB_ATOM_STRING.rawValue, 8, UInt32(latin1Title.count), latin1Title)
        }
        xcb_map_window(client, w)
        xcb_flush(client)
        return w
    }

    /// Sets `_NET_WM_NAME` (UTF-8), as toolkits do when a window's title changes.
    func setTitle(_ w: xcb_window_t, _ title: String) {
        let bytes = Array(title.utf8)
        xcb_change_property(client, UInt8(XCB_PROP_MODE_REPLACE.rawValue), w, atom("_NET_WM_NAME"),
                            atom("UTF8_STRING"), 8, UInt32(bytes.count), bytes)
        xcb_flush(client)
    }

    /// Asks the window manager to activate `w`, as a pager or taskbar does (EWMH
    /// `_NET_ACTIVE_WINDOW` client message, source indication 2).
    func activate(_ w: xcb_window_t) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = w
        event.type = atom("_NET_ACTIVE_WINDOW")
        event.data.data32 = (2, 0 /* CurrentTime */, 0, 0, 0)
        let mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue
        withUnsafeBytes(of: &event) { raw in
            _ = xcb_send_event(client, 0, root, mask, raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        xcb_flush(client)
    }

    /// Writes `_NET_ACTIVE_WINDOW` on the root directly, as a window manager does when
    /// nothing has the focus (openbox itself never sets None for long).
    func setActiveWindowProperty(_ w: xcb_window_t) {
        var value = w
        xcb_change_property(client, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atom("_NET_ACTIVE_WINDOW"),
                            XCB_ATOM_WINDOW.rawValue, 32, 1, &value)
        xcb_flush(client)
    }

    func destroy(_ w: xcb_window_t) {
        xcb_destroy_window(client, w)
        xcb_flush(client)
    }

    /// Runs `setxkbmap` on the server (as a user's session does when the layout is chosen).
    func setKeyboardLayout(_ arguments: [String]) throws {
        let p = try TestProcess(["setxkbmap", "-display", display] + arguments, environment: environment,
                                logPath: dir + "/setxkbmap.log")
        guard p.wait() == 0 else { throw TestFailure("setxkbmap \(arguments): \(readFile(dir + "/setxkbmap.log"))") }
    }

    /// Locks the core keyboard's XKB group, as a layout-switch shortcut does.
    func lockGroup(_ group: UInt8) {
        free(xcb_xkb_use_extension_reply(client, xcb_xkb_use_extension(client, 1, 0), nil))
        xcb_xkb_latch_lock_state(client, xcb_xkb_device_spec_t(XCB_XKB_ID_USE_CORE_KBD.rawValue),
                                 0, 0, 1, group, 0, 0, 0)
        xcb_flush(client)
    }

    deinit {
        killServer()
        removeTree(dir)
    }
}
