import Glibc
@testable import TapUinput

/// A real headless sway (`WLR_BACKENDS=headless`, pixman renderer) in a private runtime dir.
///
/// sway refuses to start as root ("Unable to drop root"), so under root it runs as `nobody`
/// through `setpriv`; the runtime dir is then chowned to nobody. Clients run as the test's
/// user (root may connect to nobody's sockets).
final class SwayHarness {
    let dir: String
    let socketPath: String
    private(set) var waylandDisplay = ""
    private var sway: TestProcess?
    private var clients: [TestProcess] = []

    init(xwayland: Bool = false) throws {
        try requireProgram("sway")
        try requireProgram("foot")
        try requireProgram("swaymsg")
        dir = try makeTemporaryDirectory("focus-sway")
        socketPath = dir + "/sway.sock"
        try writeFile(dir + "/config", """
            output HEADLESS-1 resolution 1024x768
            xwayland \(xwayland ? "enable" : "disable")
            focus_on_window_activation focus
            default_border none

            """)
        try launch()
    }

    var environment: [String: String] {
        var env = ["PATH": testPath, "HOME": dir, "XDG_RUNTIME_DIR": dir,
                   "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
                   "SWAYSOCK": socketPath, "LANG": "C.UTF-8"]
        if !waylandDisplay.isEmpty { env["WAYLAND_DISPLAY"] = waylandDisplay }
        return env
    }

    /// (Re)starts sway on the same socket path and waits for its IPC and Wayland sockets.
    func launch() throws {
        var argv = ["sway", "-c", dir + "/config"]
        if getuid() == 0 {
            chown(dir, 65534, 65534)
            argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
        }
        waylandDisplay = ""
        sway = try TestProcess(argv, environment: environment, logPath: dir + "/sway.log")
        let up = waitUntil(timeoutMilliseconds: 10_000) {
            socketAccepts(self.socketPath) && self.findWaylandSocket().map { socketAccepts("\(self.dir)/\($0)") } == true
                || !(self.sway?.isRunning ?? false)
        }
        guard up, let display = findWaylandSocket() else {
            throw TestFailure("sway did not start: \(readFile(dir + "/sway.log").suffix(2000))")
        }
        waylandDisplay = display
    }

    private func findWaylandSocket() -> String? {
        for n in 0..<10 where fileExists("\(dir)/wayland-\(n)") && fileExists("\(dir)/wayland-\(n).lock") {
            return "wayland-\(n)"
        }
        return nil
    }

    /// Kills sway (and its Xwayland); its clients die with their display.
    func kill() {
        sway?.terminate()
        sway = nil
    }

    /// Starts `foot` with `appID` and `title`; the shell inside waits for a line on
    /// `fifo` (when given) and sets it as the new title through the OSC 2 escape.
    @discardableResult
    func startTerminal(appID: String, title: String, titleFIFO fifo: String? = nil) throws -> TestProcess {
        var argv = ["foot", "--app-id=\(appID)", "--title=\(title)", "--log-level=error"]
        if let fifo {
            argv += ["sh", "-c", "read t < '\(fifo)'; printf '\\033]2;%s\\007' \"$t\"; exec sleep 600"]
        } else {
            argv += ["sleep", "600"]
        }
        let p = try TestProcess(argv, environment: environment, logPath: dir + "/\(appID).log")
        clients.append(p)
        return p
    }

    /// Runs `swaymsg` with `arguments` and waits for it; returns its exit status.
    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> Int32 {
        try TestProcess(["swaymsg", "-s", socketPath] + arguments, environment: environment,
                        logPath: dir + "/swaymsg.log").wait()
    }

    deinit {
        clients.forEach { $0.terminate() }
        kill()
        removeTree(dir)
    }
}
