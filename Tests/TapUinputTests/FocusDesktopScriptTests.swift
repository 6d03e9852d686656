import Glibc
import Testing
@testable import TapUinput

/// The GNOME Shell extension and KWin script (contrib/), which run inside desktops that
/// cannot run here. Covered: their logic (node, with stand-ins for `workspace`/`callDBus` and
/// Meta windows) and the extension's D-Bus call on a real private bus under gjs, against a
/// stand-in daemon. Not covered: gnome-shell or KWin loading them.
@Suite struct FocusDesktopScriptTests {
    private static let repository: String = {
        let file = #filePath
        return String(file[..<file.firstRange(of: "/Tests/TapUinputTests/")!.lowerBound])
    }()

    @Test func kwinScriptAndGnomeLogicPassTheirNodeTests() throws {
        try requireProgram("node")
        let log = "/tmp/focus-node-tests.\(getpid()).log"
        defer { unlink(log) }
        let status = try TestProcess(["node", "--test", "\(Self.repository)/Tests/focus/"],
                                     environment: ["PATH": testPath], logPath: log).wait(timeoutMilliseconds: 60_000)
        #expect(status == 0, "\(readFile(log))")
        #expect(readFile(log).contains("# fail 0"))
    }

    @Test func gnomeExtensionCallsSetFocusOnARealBus() throws {
        try requireProgram("gjs")
        try requireProgram("dbus-run-session")
        let log = "/tmp/focus-gjs-test.\(getpid()).log"
        defer { unlink(log) }
        let status = try TestProcess(["dbus-run-session", "--", "gjs", "-m", "\(Self.repository)/Tests/focus/gnome-dbus-call.js"],
                                     environment: ["PATH": testPath, "HOME": "/tmp"], logPath: log).wait(timeoutMilliseconds: 30_000)
        #expect(status == 0, "\(readFile(log))")
        #expect(readFile(log).contains("ok"))
    }
}
