import EventLoop
import Testing
@testable import TapUinput

/// The source the daemon's D-Bus SetFocus feeds (the GNOME extension and KWin script).
@Suite struct FocusPushedTests {
    @Test func dropsRepeatsAndHoldsBackAPassingNothing() throws {
        let loop = try EventLoop()
        let source = PushedFocusSource(noneGraceMilliseconds: 50)
        let rec = FocusRecorder()
        source.push(appID: "early", title: "before start")           // ignored: not started
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        source.push(appID: "firefox", title: "Mozilla Firefox")
        source.push(appID: "firefox", title: "Mozilla Firefox")      // repeat
        source.push(appID: "", title: "")                             // window closing...
        source.push(appID: "org.gnome.Console", title: "bash")        // ...next one focused
        #expect(rec.infos.map(\.appID) == ["firefox", "org.gnome.Console"])
        source.push(appID: "", title: "")                             // nothing, for real
        #expect(rec.infos.count == 2)                                 // not yet
        #expect(rec.wait(for: 3, on: loop, timeoutMilliseconds: 2000))
        #expect(rec.infos.last == FocusInfo.none(source: "dbus"))
        #expect(source.current == FocusInfo.none(source: "dbus"))
    }
}
