import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// i3 (the sway source speaking i3's IPC) on a real Xvfb with real X windows; the X11 source
/// watches the same session, so both mechanisms are checked against one window manager.
@Suite(.serialized) struct FocusI3Tests {
    @Test func i3IPCAndX11AgreeOnEveryFocusChange() throws {
        try requireProgram("i3-msg")
        let x = try X11Harness(windowManager: .i3)
        let loop = try EventLoop()
        let i3 = SwayFocusSource(socketPath: x.i3Socket, name: "i3", retry: nil)
        let x11 = X11FocusSource(display: x.display, retry: nil)
        let viaI3 = FocusRecorder(), viaX11 = FocusRecorder()
        try i3.start(on: loop, onChange: viaI3.callback)
        try x11.start(on: loop, onChange: viaX11.callback)
        defer { i3.stop(); x11.stop() }
        let both = { (n: Int) in loop.run(until: { viaI3.infos.count >= n && viaX11.infos.count >= n }, timeoutMilliseconds: 10_000) }

        #expect(both(1))   // the probe window, from GET_TREE and from _NET_ACTIVE_WINDOW
        let alpha = x.createWindow(instance: "alpha", class: "Alpha", title: "Alpha one")
        #expect(both(2))
        x.createWindow(instance: "beta", class: "Beta", title: "Beta one")
        #expect(both(3))
        #expect(try TestProcess(["i3-msg", "-s", x.i3Socket, #"[class="Alpha"] focus"#],
                                environment: x.environment, logPath: x.dir + "/i3-msg.log").wait() == 0)
        #expect(both(4))
        x.setTitle(alpha, "Alpha renamed")
        #expect(both(5))

        let expected = [["Probe", "probe", "probe"], ["Alpha", "alpha", "Alpha one"], ["Beta", "beta", "Beta one"],
                        ["Alpha", "alpha", "Alpha one"], ["Alpha", "alpha", "Alpha renamed"]]
        #expect(viaI3.infos.map { [$0.appID, $0.instance, $0.title] } == expected)
        #expect(viaX11.infos.map { [$0.appID, $0.instance, $0.title] } == expected)
        #expect(viaI3.infos.allSatisfy { $0.source == "i3" })
    }
}
