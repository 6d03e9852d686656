import Glibc
import Testing
@testable import TapUinput

/// The GNOME Shell extensions (45+ and 42-44) and the KWin script (contrib/), which run inside
/// desktops that cannot run here. Covered: their logic (node, with stand-ins for KWin's
/// `workspace`/`callDBus`, gnome-shell's `global.display` and Meta windows) and the
/// extensions' D-Bus side on a real private bus under gjs, against a stand-in daemon.
/// Not covered: gnome-shell or KWin loading them.
@Suite struct FocusDesktopScriptTests {
    private static let repository: String = {
        let file = #filePath
        return String(file[..<file.firstRange(of: "/Tests/TapUinputTests/")!.lowerBound])
    }()

    @Test func kwinScriptAndGnomeLogicPassTheirNodeTests() throws {
        try requireProgram("node")
        let log = "/tmp/focus-node-tests.\(getpid()).log"
        defer { unlink(log) }
        // Files, not the directory: node 21+ no longer expands a directory argument.
        let dir = "\(Self.repository)/Tests/focus"
        let files = ["kwin-script", "gnome-extension", "gnome-focus-pusher"].map { "\(dir)/\($0).test.mjs" }
        let status = try TestProcess(["node", "--test"] + files,
                                     environment: ["PATH": testPath], logPath: log).wait(timeoutMilliseconds: 60_000)
        #expect(status == 0, "\(readFile(log))")
        #expect(readFile(log).contains("# pass 12"))
        #expect(readFile(log).contains("# fail 0"))
    }

    @Test(arguments: [false, true])
    func gnomeExtensionCallsSetFocusOnARealBus(legacy: Bool) throws {
        try requireProgram("gjs")
        try requireProgram("dbus-run-session")
        let log = "/tmp/focus-gjs-test.\(getpid()).\(legacy).log"
        defer { unlink(log) }
        let status = try TestProcess(["dbus-run-session", "--", "gjs", "-m", "\(Self.repository)/Tests/focus/gnome-dbus-call.js"] + (legacy ? ["--legacy"] : []),
                                     environment: ["PATH": testPath, "HOME": "/tmp"], logPath: log).wait(timeoutMilliseconds: 30_000)
        #expect(status == 0, "\(readFile(log))")
        #expect(readFile(log).contains("ok"))
    }
}
