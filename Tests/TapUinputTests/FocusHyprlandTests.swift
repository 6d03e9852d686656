import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// Hyprland focus source against a protocol-level fake of its two sockets (Hyprland itself
/// needs a GPU-capable session and cannot run here).
@Suite struct FocusHyprlandTests {
    @Test func parsesActiveWindowEventsAcrossReadsAndDropsRepeats() throws {
        let loop = try EventLoop()
        let hypr = try FakeHyprland(loop: loop)
        hypr.activeWindowJSON = #"{"address": "0x55aa", "class": "kitty", "title": "~/src", "initialClass": "kitty"}"#
        let source = HyprlandFocusSource(instanceDirectory: hypr.directory, retry: nil)
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }

        // Focus at start, from j/activewindow on the request socket.
        #expect(rec.wait(for: 1, on: loop))
        #expect(hypr.requests == ["j/activewindow"])
        #expect(loop.run(until: { hypr.eventClients.count == 1 }, timeoutMilliseconds: 2000))

        hypr.send("workspace>>2\nactivewindow>>firefox,Mozilla Firefox\nactivewindowv2>>0x66bb\n")
        #expect(rec.wait(for: 2, on: loop))
        // One event split over two writes; a title with commas and ">>" in it.
        hypr.send("activewindow>>org.gnome.Nautilus,Home, Documents")
        hypr.send(" >> more\nactivewindowv2>>0x77cc\n")
        #expect(rec.wait(for: 3, on: loop))
        // The same window again (Hyprland repeats it, e.g. on a title-less update): dropped.
        hypr.send("activewindow>>org.gnome.Nautilus,Home, Documents >> more\n")
        // A title change of the focused window reported as windowtitlev2 only.
        hypr.send("windowtitlev2>>0x77cc,Trash\n")
        // ...and of another window: ignored.
        hypr.send("windowtitlev2>>0x55aa,~/elsewhere\n")
        #expect(rec.wait(for: 4, on: loop))
        // Nothing focused (last window closed on this workspace), reported once it lasts...
        hypr.send("activewindow>>,\nactivewindowv2>>\n")
        #expect(rec.wait(for: 5, on: loop))
        hypr.send("activewindow>>firefox,Mozilla Firefox\n")
        #expect(rec.wait(for: 6, on: loop))
        // ...but a "nothing" on the way between two windows is not.
        hypr.send("activewindow>>,\nactivewindow>>kitty,~/src\n")
        #expect(rec.wait(for: 7, on: loop))
        var settled = false
        loop.schedule(afterMilliseconds: 300) { settled = true }
        loop.run(until: { settled }, timeoutMilliseconds: 2000)

        #expect(rec.infos.map { [$0.appID, $0.title] } == [
            ["kitty", "~/src"],
            ["firefox", "Mozilla Firefox"],
            ["org.gnome.Nautilus", "Home, Documents >> more"],
            ["org.gnome.Nautilus", "Trash"],
            ["", ""],
            ["firefox", "Mozilla Firefox"],
            ["kitty", "~/src"],
        ])
        #expect(rec.infos.allSatisfy { $0.source == "hyprland" })
    }

    @Test func followsOurKeyboardsLayoutFromDevicesAndActivelayoutEvents() throws {
        let loop = try EventLoop()
        let hypr = try FakeHyprland(loop: loop)
        hypr.devicesJSON = #"{"mice": [], "keyboards": [{"address": "0x1", "name": "at-translated-set-2-keyboard", "layout": "de,us", "active_keymap": "German", "main": true}]}"#
        let source = HyprlandFocusSource(instanceDirectory: hypr.directory, retry: nil)
        var layouts: [String] = []
        source.onLayoutChange = { layouts.append($0.summary + " " + $0.origin) }
        try source.start(on: loop) { _ in }
        defer { source.stop() }

        #expect(loop.run(until: { layouts.count == 1 }, timeoutMilliseconds: 2000))
        #expect(hypr.requests.sorted() == ["j/activewindow", "j/devices"])
        #expect(loop.run(until: { hypr.eventClients.count == 1 }, timeoutMilliseconds: 2000))
        // Our keyboard appears with its own layout: it counts from now on.
        hypr.send("activelayout>>tapuinput-keyboard,French (AZERTY)\n")
        #expect(loop.run(until: { layouts.count == 2 }, timeoutMilliseconds: 2000))
        // Another keyboard switching, a repeat and a layout xkeyboard-config does not list: no report.
        hypr.send("activelayout>>at-translated-set-2-keyboard,English (US)\nactivelayout>>tapuinput-keyboard,French (AZERTY)\n")
        hypr.send("activelayout>>tapuinput-keyboard,My own layout\nactivelayout>>tapuinput-keyboard,Russian\n")
        #expect(loop.run(until: { layouts.count == 3 }, timeoutMilliseconds: 2000))
        #expect(layouts == ["de hyprland", "fr(azerty) hyprland", "ru hyprland"])
        #expect(source.currentLayout?.summary == "ru")
    }

    @Test func reconnectsAfterHyprlandRestarts() throws {
        let loop = try EventLoop()
        let hypr = try FakeHyprland(loop: loop)
        let source = HyprlandFocusSource(instanceDirectory: hypr.directory,
                                         retry: FocusRetryPolicy(initialMilliseconds: 20, maximumMilliseconds: 100))
        let rec = FocusRecorder()
        try source.start(on: loop, onChange: rec.callback)
        defer { source.stop() }
        #expect(loop.run(until: { hypr.eventClients.count == 1 }, timeoutMilliseconds: 2000))
        hypr.send("activewindow>>foot,shell\n")
        #expect(rec.wait(for: 1, on: loop))

        hypr.shutDown()
        #expect(loop.run(until: { !source.isConnected }, timeoutMilliseconds: 2000))
        var waited = false
        loop.schedule(afterMilliseconds: 250) { waited = true }   // several failed retries
        loop.run(until: { waited }, timeoutMilliseconds: 2000)
        #expect(!source.isConnected)

        hypr.activeWindowJSON = #"{"address": "0x1", "class": "emacs", "title": "notes.org"}"#
        try hypr.listen()
        #expect(rec.wait(for: 2, on: loop))
        #expect(source.isConnected)
        #expect(rec.infos.last == FocusInfo(appID: "emacs", title: "notes.org", source: "hyprland"))
        hypr.send("activewindow>>foot,shell\n")
        #expect(rec.wait(for: 3, on: loop))
        #expect(rec.apps == ["foot", "emacs", "foot"])
    }

    @Test func stoppingFromInsideTheCallbackIsSafe() throws {
        let loop = try EventLoop()
        let hypr = try FakeHyprland(loop: loop)
        let source = HyprlandFocusSource(instanceDirectory: hypr.directory, retry: nil)
        var seen: [String] = []
        try source.start(on: loop) { info in
            seen.append(info.appID)
            source.stop()   // e.g. the daemon switching sources
        }
        #expect(loop.run(until: { hypr.eventClients.count == 1 }, timeoutMilliseconds: 2000))
        hypr.send("activewindow>>one,1\nactivewindow>>two,2\n")
        #expect(loop.run(until: { !seen.isEmpty }, timeoutMilliseconds: 2000))
        hypr.send("activewindow>>three,3\n")
        var settled = false
        loop.schedule(afterMilliseconds: 100) { settled = true }
        loop.run(until: { settled }, timeoutMilliseconds: 2000)
        #expect(seen == ["one"])
        #expect(!source.isConnected)
    }

    @Test func aPeerThatNeverAnswersDoesNotBlockTheLoop() throws {
        // A socket that is listening but never accepts: the connect succeeds (the kernel's
        // backlog), the requests sit unread. Nothing may wait on it.
        let loop = try EventLoop()
        let dir = try makeTemporaryDirectory("focus-mute")
        defer { removeTree(dir) }
        let listener = try FakeHyprland.listeningSocket(dir + "/sway.sock")
        defer { close(listener) }
        let sway = SwayFocusSource(socketPath: dir + "/sway.sock", retry: nil)
        let hypr = HyprlandFocusSource(eventSocketPath: dir + "/sway.sock", requestSocketPath: dir + "/sway.sock", retry: nil)
        let start = MonotonicInstant.now()
        try sway.start(on: loop) { _ in }
        try hypr.start(on: loop) { _ in }
        defer { sway.stop(); hypr.stop() }
        var ticks = 0
        func tick() { ticks += 1; if ticks < 5 { loop.schedule(afterMilliseconds: 20) { tick() } } }
        tick()
        #expect(loop.run(until: { ticks == 5 }, timeoutMilliseconds: 2000))
        #expect(MonotonicInstant.now().nanoseconds(since: start) < 1_000_000_000)
        #expect(sway.current == nil && hypr.current == nil)
    }

    @Test func failsToStartWithoutSocket() throws {
        let loop = try EventLoop()
        let source = HyprlandFocusSource(instanceDirectory: "/nonexistent/hypr/x", retry: nil)
        #expect(throws: FocusSourceError.self) { try source.start(on: loop) { _ in } }
    }
}
