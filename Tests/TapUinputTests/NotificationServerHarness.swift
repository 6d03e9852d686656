import DBus
import EventLoop
import Glibc
import TestKit
@testable import TapUinput

/// A real notification server for the notification tests: `dunst` (Debian's package) on the
/// test's private session bus, drawing its bubbles on its own `Xvfb`. The test reads what it
/// shows through dunst's own D-Bus interface (`org.dunstproject.cmd0`, what `dunstctl`
/// uses): ``shown()`` closes every bubble, which moves it into dunst's history, and lists
/// the history. A notification that replaced another (same `replaces_id`) is one entry.
final class DunstServer {
    struct Shown: Equatable {
        var id: Int
        var summary: String
        var body: String
    }

    let dir: String
    private var xvfb: TestProcess?
    private var dunst: TestProcess?
    private let bus: DBusConnection

    init(busAddress: String, loop: EventLoop) throws {
        try requireProgram("Xvfb")
        try requireProgram("dunst")
        dir = try makeTemporaryDirectory("dunst")
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe") }
        defer { close(fds[0]) }
        do {
            xvfb = try TestProcess(["Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "800x600x24"],
                                   environment: ["PATH": testPath], logPath: dir + "/xvfb.log", passFD: fds[1])
        } catch { close(fds[1]); throw error }
        close(fds[1])
        var pfd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        var number = [UInt8](repeating: 0, count: 16)
        guard poll(&pfd, 1, 10_000) == 1, read(fds[0], &number, 15) > 0 else {
            throw TestFailure("Xvfb did not start: \(readFile(dir + "/xvfb.log"))")
        }
        let display = ":" + String(decoding: number.prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
        // HOME and XDG_CONFIG_HOME in the temporary directory: dunst's defaults, not a user's dunstrc.
        dunst = try TestProcess(["dunst"], environment: ["PATH": testPath, "HOME": dir, "XDG_CONFIG_HOME": dir,
                                                         "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress],
                                logPath: dir + "/dunst.log")
        bus = try DBusConnection(bus: .address(busAddress), loop: loop)
        let up = waitUntil(timeoutMilliseconds: 10_000) {
            (try? self.bus.callBlocking(.nameHasOwner(DesktopNotifier.busName)))?.first?.bool == true
        }
        guard up else { throw TestFailure("dunst did not take the bus name: \(readFile(dir + "/dunst.log"))") }
    }

    /// Every notification dunst has shown so far, newest first.
    func shown() throws -> [Shown] {
        _ = try bus.callBlocking(command("NotificationCloseAll"))
        let history = try bus.callBlocking(command("NotificationListHistory"))
        return (history.first?.array ?? []).compactMap { entry in
            guard let d = entry.dictionary else { return nil }
            return Shown(id: d["id"]?.unwrapped.int ?? 0, summary: d["summary"]?.unwrapped.string ?? "",
                         body: d["body"]?.unwrapped.string ?? "")
        }
    }

    private func command(_ method: String) -> DBusMessage {
        .methodCall(destination: DesktopNotifier.busName, path: DesktopNotifier.objectPath,
                    interface: "org.dunstproject.cmd0", method: method)
    }

    func stop() {
        bus.close()
        dunst?.terminate()
        xvfb?.terminate()
        dunst = nil
        xvfb = nil
        removeTree(dir)
    }

    deinit { stop() }
}
