import ChordMap
import DBus
import EventLoop
import TapBLE
import TestKit
import Testing
@testable import TapUinput

/// Signals from ``ControlService`` to a watching ``ControlClient`` (what `monitor` shows), on a
/// real private bus.
@Suite struct ControlSignalTests {
    final class Seen {
        var events: [ControlEvent] = []
        var daemon: [Bool] = []
    }

    private func watching(_ h: ControlHarness) -> (Seen, [DBusConnection.Subscription]) {
        let seen = Seen()
        let subs = h.client.watch(daemon: { seen.daemon.append($0) }) { seen.events.append($0) }
        #expect(h.loop.run(until: { h.service.wantsTaps }, timeoutMilliseconds: 3000))
        return (seen, subs)
    }

    @Test func everySignalArrivesDecodedAndInOrder() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let (seen, _) = watching(h)
        #expect(seen.daemon == [true])
        let s = h.service
        s.deviceConnected(id: "AA:01", name: "Tap_1")
        s.layerChanged(device: "AA:01", layer: "numbers")
        s.focusChanged(appID: "firefox", title: "Mozilla Firefox")
        s.keymapChanged(name: "web", file: "/c/web.toml")
        s.keymapChanged(name: "TapCode", file: nil)
        s.keymapError("/c/web.toml:3:1: error: x")
        s.tap(device: "AA:01", chord: Chord(spelling: "x.x..")!, action: "ctrl+t", app: "firefox", layer: "web")
        s.deviceDisconnected(id: "AA:01", reason: "link lost")
        let expected: [ControlEvent] = [
            .deviceConnected(id: "AA:01", name: "Tap_1"),
            .layerChanged(device: "AA:01", layer: "numbers"),
            .focusChanged(appID: "firefox", title: "Mozilla Firefox"),
            .keymapChanged(name: "web", file: "/c/web.toml"),
            .keymapChanged(name: "TapCode", file: ""),
            .keymapError(message: "/c/web.toml:3:1: error: x"),
            .tap(device: "AA:01", chord: Chord(rawValue: 5), action: "ctrl+t", app: "firefox", layer: "web"),
            .deviceDisconnected(id: "AA:01", reason: "link lost"),
        ]
        #expect(h.loop.run(until: { seen.events.count >= expected.count }, timeoutMilliseconds: 3000))
        #expect(seen.events == expected)
    }

    /// The daemon's reload wiring end to end: a save in the keymap directory -> watcher ->
    /// selector -> KeymapError / KeymapChanged signals at a watching client.
    @Test func savedKeymapsAreAnnouncedAndBrokenOnesReportedWithTheirPosition() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let selector = h.daemon.selector
        selector.onChange = { [service = h.service] in service.keymapChanged(name: $0.base.keymap.name, file: $0.base.file) }
        selector.onError = { [service = h.service] in service.keymapError($0.description) }
        let watcher = try KeymapWatcher(directories: [h.keymaps.path], loop: h.loop, settleMilliseconds: 50) { _ in
            try? selector.reload()
        }
        defer { watcher.stop() }
        let (seen, _) = watching(h)

        try h.keymaps.write("keymap.toml", KeymapFixtureDirectory.broken)
        #expect(h.loop.run(until: { !seen.events.isEmpty }, timeoutMilliseconds: 5000))
        guard case .keymapError(let message)? = seen.events.first else {
            Issue.record("expected a KeymapError, got \(seen.events)")
            return
        }
        #expect(message.contains("\(h.keymaps.file("keymap.toml")):6:11: error: unknown key name \"entr\""))
        #expect(try h.client.status().keymap == "main")

        try h.keymaps.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main v2"))
        #expect(h.loop.run(until: { seen.events.count == 2 }, timeoutMilliseconds: 5000))
        #expect(seen.events.last == .keymapChanged(name: "main v2", file: h.keymaps.file("keymap.toml")))
    }

    @Test func tapsAreOnlySentWhileSomeoneWatches() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        #expect(!h.service.wantsTaps)
        // A second client listening to signals without WatchTaps sees no taps.
        let eavesdropper = try ControlClient(bus: .address(h.bus.address), loop: h.loop)
        var overheard: [ControlEvent] = []
        eavesdropper.connection.subscribe(DBusMatchRule(path: ControlInterface.objectPath, interface: ControlInterface.interface)) {
            if let e = ControlEvent(signal: $0) { overheard.append(e) }
        }
        h.settle()
        let chord = Chord(rawValue: 1)!
        h.service.tap(device: "AA:01", chord: chord, action: "a", app: "", layer: "base")
        h.settle()
        #expect(overheard.isEmpty)

        let (seen, subs) = watching(h)
        h.service.tap(device: "AA:01", chord: chord, action: "b", app: "", layer: "base")
        #expect(h.loop.run(until: { seen.events.count == 1 }, timeoutMilliseconds: 3000))
        // Even while someone watches, the taps go to the watcher alone (unicast), not to the bus.
        h.settle()
        #expect(overheard.isEmpty)

        h.client.stopWatching(subs)
        #expect(h.loop.run(until: { !h.service.wantsTaps }, timeoutMilliseconds: 3000))

        // A watcher that leaves the bus without saying so is dropped too.
        let (_, _) = watching(h)
        h.client.connection.close()
        #expect(h.loop.run(until: { !h.service.wantsTaps }, timeoutMilliseconds: 3000))
        eavesdropper.connection.close()
    }

    @Test func signalsFromAnotherPeerAreIgnored() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let (seen, _) = watching(h)
        let impostor = try DBusConnection(bus: .address(h.bus.address), loop: h.loop)
        defer { impostor.close() }
        impostor.emitSignal(path: ControlInterface.objectPath, interface: ControlInterface.interface,
                            name: "KeymapChanged", arguments: [.string("evil"), .string("/tmp/evil.toml")])
        h.service.keymapChanged(name: "real", file: "/c/real.toml")
        #expect(h.loop.run(until: { !seen.events.isEmpty }, timeoutMilliseconds: 3000))
        h.settle()
        #expect(seen.events == [.keymapChanged(name: "real", file: "/c/real.toml")])
    }

    @Test func aRestartedDaemonIsNoticedAndWatchedAgain() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let (seen, _) = watching(h)
        h.service.close()
        h.serviceConnection.close()
        #expect(h.loop.run(until: { seen.daemon == [true, false] }, timeoutMilliseconds: 3000))

        let connection = try DBusConnection(bus: .address(h.bus.address), loop: h.loop)
        defer { connection.close() }
        let restarted = try ControlService(connection: connection, handler: h.daemon)
        #expect(h.loop.run(until: { seen.daemon == [true, false, true] && restarted.wantsTaps }, timeoutMilliseconds: 3000))
        restarted.tap(device: "AA:01", chord: Chord(rawValue: 31)!, action: "space", app: "foot", layer: "base")
        #expect(h.loop.run(until: { seen.events.count == 1 }, timeoutMilliseconds: 3000))
        #expect(seen.events.first == .tap(device: "AA:01", chord: Chord(rawValue: 31), action: "space", app: "foot", layer: "base"))
    }
}
