import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// sway focus source against a real headless sway with real `foot` windows.
@Suite(.serialized) struct FocusSwayTests {
    @Test func reportsFocusAndTitleChangesAndInitialFocusFromTree() throws {
        let sway = try SwayHarness()
        let loop = try EventLoop()
        let source = SwayFocusSource(socketPath: sway.socketPath, retry: nil)
        let rec = FocusRecorder()
        // With a layout listener the source also subscribes to input events and asks GET_INPUTS:
        // sway must accept both without disturbing focus. (Headless sway has no keyboard, so no
        // layout is reported; the VM scenario desktop_sway has real ones.)
        var layouts = 0
        source.onLayoutChange = { _ in layouts += 1 }
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop(); #expect(layouts == 0) }

        // Empty session: GET_TREE finds a focused workspace, not a window.
        #expect(rec.wait(for: 1, on: loop))
        #expect(rec.infos.first == FocusInfo.none(source: "sway"))

        let fifo = sway.dir + "/alpha-title"
        #expect(mkfifo(fifo, 0o600) == 0)
        try sway.startTerminal(appID: "alpha", title: "Alpha one", titleFIFO: fifo)
        #expect(rec.wait(for: 2, on: loop))
        let betaFIFO = sway.dir + "/beta-title"
        #expect(mkfifo(betaFIFO, 0o600) == 0)
        try sway.startTerminal(appID: "beta", title: "Beta one", titleFIFO: betaFIFO)
        #expect(rec.wait(for: 3, on: loop))
        #expect(try sway.swaymsg([#"[app_id="alpha"] focus"#]) == 0)
        #expect(rec.wait(for: 4, on: loop))

        // beta, now in the background, renames itself: not a focus change.
        try writeFile(betaFIFO, "Beta renamed\n")
        // The program inside alpha renames its window (OSC 2): one title event.
        try writeFile(fifo, "Alpha renamed\n")
        #expect(rec.wait(for: 5, on: loop))
        // Focusing the already-focused window again changes nothing: no callback.
        #expect(try sway.swaymsg([#"[app_id="alpha"] focus"#]) == 0)
        #expect(try sway.swaymsg([#"[app_id="beta"] focus"#]) == 0)
        #expect(rec.wait(for: 6, on: loop))

        #expect(rec.infos.map { [$0.appID, $0.title] } == [
            ["", ""],
            ["alpha", "Alpha one"],
            ["beta", "Beta one"],
            ["alpha", "Alpha one"],
            ["alpha", "Alpha renamed"],
            ["beta", "Beta renamed"],
        ])
        #expect(rec.infos.allSatisfy { $0.source == "sway" })
        #expect(source.current == FocusInfo(appID: "beta", title: "Beta renamed", source: "sway"))

        // The focused window closes: sway sends `close` (nothing focused) and then `focus` of
        // beta; the passing "nothing" is held back and never reported.
        let gamma = try sway.startTerminal(appID: "gamma", title: "Gamma")
        #expect(loop.run(until: { rec.infos.last?.appID == "gamma" }, timeoutMilliseconds: 10_000))
        gamma.terminate()
        #expect(loop.run(until: { rec.infos.last?.appID == "beta" }, timeoutMilliseconds: 10_000))
        var settled = false
        loop.schedule(afterMilliseconds: 300) { settled = true }
        loop.run(until: { settled }, timeoutMilliseconds: 2000)
        #expect(rec.apps.suffix(3) == ["beta", "gamma", "beta"])

        // A second source started now learns the focus from GET_TREE alone.
        let late = SwayFocusSource(socketPath: sway.socketPath, retry: nil)
        let lateRec = FocusRecorder()
        try late.start(on: loop, onChange: lateRec.callback)
        defer { late.stop() }
        #expect(lateRec.wait(for: 1, on: loop))
        #expect(lateRec.infos == [FocusInfo(appID: "beta", title: "Beta renamed", source: "sway")])
    }

    @Test func survivesSwayExitAndReconnectsWhenItComesBack() throws {
        let sway = try SwayHarness()
        let loop = try EventLoop()
        let source = SwayFocusSource(socketPath: sway.socketPath,
                                     retry: FocusRetryPolicy(initialMilliseconds: 50, maximumMilliseconds: 200))
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))   // nothing focused, once the grace has passed
        try sway.startTerminal(appID: "gamma", title: "Gamma")
        #expect(rec.wait(for: 2, on: loop))
        #expect(rec.apps == ["", "gamma"])

        sway.kill()
        #expect(loop.run(until: { !source.isConnected }, timeoutMilliseconds: 5000))
        // The loop keeps running: retries fail quietly while sway is away.
        var ticked = false
        loop.schedule(afterMilliseconds: 300) { ticked = true }
        #expect(loop.run(until: { ticked }, timeoutMilliseconds: 2000))
        #expect(!source.isConnected)

        try sway.launch()
        try sway.startTerminal(appID: "delta", title: "Delta")
        #expect(loop.run(until: { rec.infos.last?.appID == "delta" }, timeoutMilliseconds: 10_000))
        #expect(source.isConnected)
        #expect(rec.infos.first(where: { $0.appID == "delta" }) == FocusInfo(appID: "delta", title: "Delta", source: "sway"))
    }

    @Test func xwaylandWindowReportsItsWMClass() throws {
        try requireProgram("Xwayland")
        try requireProgram("xmessage")
        let sway = try SwayHarness(xwayland: true)
        let loop = try EventLoop()
        let source = SwayFocusSource(socketPath: sway.socketPath, retry: nil)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))
        // sway starts the X client itself, so it inherits sway's DISPLAY.
        #expect(try sway.swaymsg(["exec", "xmessage -name xalpha -title 'X Alpha' hello"]) == 0)
        #expect(rec.wait(for: 2, on: loop, timeoutMilliseconds: 20_000))
        #expect(rec.infos.last == FocusInfo(appID: "Xmessage", title: "X Alpha", source: "sway", instance: "xalpha"))
    }
}
