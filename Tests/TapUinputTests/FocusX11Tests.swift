import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// X11 focus source against a real Xvfb managed by openbox, with real windows.
@Suite(.serialized) struct FocusX11Tests {
    @Test func reportsActiveWindowClassAndTitleAsFocusMoves() throws {
        let x = try X11Harness()
        let loop = try EventLoop()
        let source = X11FocusSource(display: x.display, retry: nil)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))   // the harness's probe window

        let alpha = x.createWindow(instance: "alpha", class: "Alpha", title: "Alpha ✓ one")
        #expect(rec.wait(for: 2, on: loop))
        let beta = x.createWindow(instance: "beta", class: "Beta", title: "Beta one")
        #expect(rec.wait(for: 3, on: loop))
        x.activate(alpha)
        #expect(rec.wait(for: 4, on: loop))
        // Same title again: a PropertyNotify but no change, so no report; then a real change.
        x.setTitle(alpha, "Alpha ✓ one")
        x.setTitle(alpha, "Alpha renamed")
        #expect(rec.wait(for: 5, on: loop))
        // A title change of a window without focus is not a focus change.
        x.setTitle(beta, "Beta renamed in the background")
        // Only a Latin-1 WM_NAME (old X clients): "Gamma café".
        x.createWindow(instance: "gamma", class: "Gamma", latin1Title: Array("Gamma caf".utf8) + [0xE9])
        #expect(rec.wait(for: 6, on: loop))
        x.activate(beta)
        #expect(rec.wait(for: 7, on: loop))

        #expect(rec.infos.map { [$0.appID, $0.instance, $0.title] } == [
            ["Probe", "probe", "probe"],
            ["Alpha", "alpha", "Alpha ✓ one"],
            ["Beta", "beta", "Beta one"],
            ["Alpha", "alpha", "Alpha ✓ one"],
            ["Alpha", "alpha", "Alpha renamed"],
            ["Gamma", "gamma", "Gamma café"],
            ["Beta", "beta", "Beta renamed in the background"],
        ])
        #expect(rec.infos.allSatisfy { $0.source == "x11" })
        #expect(source.current?.appID == "Beta")
    }

    @Test func reportsCurrentFocusAtStartAndTheNextWindowWhenItCloses() throws {
        let x = try X11Harness()
        let loop = try EventLoop()
        let delta = x.createWindow(instance: "delta", class: "Delta", title: "Delta")
        // Let openbox focus it before the source starts (the test's own probe source).
        let probe = X11FocusSource(display: x.display, retry: nil)
        let probeRec = FocusRecorder()
        try probe.start(on: loop, onChange: probeRec.callback)
        #expect(loop.run(until: { probeRec.infos.last?.appID == "Delta" }, timeoutMilliseconds: 10_000))
        probe.stop()

        let source = X11FocusSource(display: x.display, retry: nil)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))
        #expect(rec.infos == [FocusInfo(appID: "Delta", title: "Delta", source: "x11", instance: "delta")])
        x.destroy(delta)
        #expect(rec.wait(for: 2, on: loop))
        #expect(rec.infos.last == X11Harness.probe)
    }

    @Test func reportsNothingFocusedOnlyWhenNoneLasts() throws {
        let x = try X11Harness()
        let loop = try EventLoop()
        let source = X11FocusSource(display: x.display, retry: nil, noneGraceMilliseconds: 100)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))
        let epsilon = x.createWindow(instance: "epsilon", class: "Epsilon", title: "Epsilon")
        #expect(rec.wait(for: 2, on: loop))
        // None and straight back: a window manager moving the focus. Not reported.
        x.setActiveWindowProperty(0)
        x.setActiveWindowProperty(epsilon)
        var waited = false
        loop.schedule(afterMilliseconds: 300) { waited = true }
        loop.run(until: { waited }, timeoutMilliseconds: 2000)
        #expect(rec.infos.count == 2)
        // None that lasts: reported once the grace period is over.
        let start = MonotonicInstant.now()
        x.setActiveWindowProperty(0)
        #expect(rec.wait(for: 3, on: loop))
        #expect(MonotonicInstant.now().nanoseconds(since: start) >= 100_000_000)
        #expect(rec.apps == ["Probe", "Epsilon", ""])
    }

    @Test func survivesServerExitAndReconnectsToTheSameDisplay() throws {
        let x = try X11Harness(fixedDisplay: true)
        let loop = try EventLoop()
        let source = X11FocusSource(display: x.display,
                                    retry: FocusRetryPolicy(initialMilliseconds: 50, maximumMilliseconds: 200))
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        x.createWindow(instance: "one", class: "One", title: "One")
        #expect(loop.run(until: { rec.infos.last?.appID == "One" }, timeoutMilliseconds: 10_000))

        let display = x.display
        x.killServer()
        #expect(loop.run(until: { !source.isConnected }, timeoutMilliseconds: 5000))
        var ticked = false
        loop.schedule(afterMilliseconds: 300) { ticked = true }
        #expect(loop.run(until: { ticked }, timeoutMilliseconds: 2000))
        #expect(!source.isConnected)

        try x.launch(display: display)
        x.createWindow(instance: "two", class: "Two", title: "Two")
        #expect(loop.run(until: { rec.infos.last?.appID == "Two" }, timeoutMilliseconds: 10_000))
        #expect(source.isConnected)
        #expect(rec.infos.last == FocusInfo(appID: "Two", title: "Two", source: "x11", instance: "two"))
    }

    @Test func failsToStartWithoutAServer() throws {
        let loop = try EventLoop()
        let source = X11FocusSource(display: ":997", retry: nil)
        #expect(throws: FocusSourceError.self) { try source.start(on: loop) { _ in } }
        #expect(!source.isConnected)
    }
}
