import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// wlroots foreign-toplevel source against a real headless sway (which implements
/// zwlr_foreign_toplevel_manager_v1) with real `foot` windows.
@Suite(.serialized) struct FocusWlrToplevelTests {
    @Test func reportsActivatedToplevelAsFocusMoves() throws {
        let sway = try SwayHarness()
        let loop = try EventLoop()
        let source = WlrToplevelFocusSource(display: "\(sway.dir)/\(sway.waylandDisplay)", retry: nil)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(rec.wait(for: 1, on: loop))   // empty session: nothing activated

        let fifo = sway.dir + "/alpha-title"
        #expect(mkfifo(fifo, 0o600) == 0)
        try sway.startTerminal(appID: "alpha", title: "Alpha one", titleFIFO: fifo)
        #expect(loop.run(until: { rec.infos.last?.appID == "alpha" }, timeoutMilliseconds: 10_000))
        try sway.startTerminal(appID: "beta", title: "Beta one")
        #expect(loop.run(until: { rec.infos.last?.appID == "beta" }, timeoutMilliseconds: 10_000))
        #expect(try sway.swaymsg([#"[app_id="alpha"] focus"#]) == 0)
        #expect(loop.run(until: { rec.infos.last?.appID == "alpha" }, timeoutMilliseconds: 10_000))
        try writeFile(fifo, "Alpha renamed\n")
        #expect(loop.run(until: { rec.infos.last?.title == "Alpha renamed" }, timeoutMilliseconds: 10_000))

        #expect(rec.infos.map { [$0.appID, $0.title] } == [
            ["", ""],
            ["alpha", "Alpha one"],
            ["beta", "Beta one"],
            ["alpha", "Alpha one"],
            ["alpha", "Alpha renamed"],
        ])
        #expect(rec.infos.allSatisfy { $0.source == "wlroots" })

        // A second client learns the focus from the toplevels announced at bind time.
        let late = WlrToplevelFocusSource(display: "\(sway.dir)/\(sway.waylandDisplay)", retry: nil)
        let lateRec = FocusRecorder()
        try late.start(on: loop, onChange: lateRec.callback)
        defer { late.stop() }
        #expect(lateRec.wait(for: 1, on: loop))
        #expect(lateRec.infos == [FocusInfo(appID: "alpha", title: "Alpha renamed", source: "wlroots")])
    }

    @Test func survivesCompositorExitAndReconnects() throws {
        let sway = try SwayHarness()
        let loop = try EventLoop()
        let source = WlrToplevelFocusSource(display: "\(sway.dir)/\(sway.waylandDisplay)",
                                            retry: FocusRetryPolicy(initialMilliseconds: 50, maximumMilliseconds: 200))
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        try sway.startTerminal(appID: "gamma", title: "Gamma")
        #expect(loop.run(until: { rec.infos.last?.appID == "gamma" }, timeoutMilliseconds: 10_000))
        sway.kill()
        #expect(loop.run(until: { !source.isConnected }, timeoutMilliseconds: 5000))
        var ticked = false
        loop.schedule(afterMilliseconds: 300) { ticked = true }
        #expect(loop.run(until: { ticked }, timeoutMilliseconds: 2000))
        #expect(!source.isConnected)
        #expect(!source.isUnsupported)

        let display = sway.waylandDisplay
        try sway.launch()
        #expect(sway.waylandDisplay == display)   // same runtime dir: same socket name
        try sway.startTerminal(appID: "delta", title: "Delta")
        #expect(loop.run(until: { rec.infos.last?.appID == "delta" }, timeoutMilliseconds: 10_000))
        #expect(source.isConnected)
    }

    @Test func failsToStartWithoutCompositor() throws {
        let loop = try EventLoop()
        let source = WlrToplevelFocusSource(display: "/nonexistent/wayland-9", retry: nil)
        #expect(throws: FocusSourceError.self) { try source.start(on: loop) { _ in } }
    }
}
