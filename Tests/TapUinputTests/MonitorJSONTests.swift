import ChordMap
import Foundation
import Testing
@testable import TapUinput

/// `tap-uinput monitor --json`: the escaping, the line schema, and the feed against the real
/// daemon on a private bus (``DaemonTests/Harness``).
@Suite(.serialized) struct MonitorJSONTests {
    /// Parses one line with Foundation's JSON reader: what a script would do.
    static func parse(_ line: String) throws -> [String: Any] {
        #expect(!line.contains("\n"))
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func stringsAreEscapedAndRoundTrip() throws {
        let nasty = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} del \u{7F} esc \u{1B} "
            + "sep \u{2028}\u{2029} é 日本 🎹 </script>"
        let quoted = JSONValue.quoted(nasty)
        #expect(quoted.hasPrefix("\"quote \\\" backslash \\\\ newline \\n tab \\t nul \\u0000 bell \\u0007 del \\u007f esc \\u001b"))
        #expect(quoted.contains("sep \\u2028\\u2029 é 日本 🎹 </script>"))
        #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 })
        let back = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(back == [nasty])
        #expect(JSONValue.object([("a", .array([.int(-1), .bool(true), .null])), ("é", .object([]))]).serialized
                == "{\"a\":[-1,true,null],\"é\":{}}")
    }

    @Test func aLineCarriesTheEventAndTheWholeState() throws {
        var status = ControlStatus(keymap: "main", focusApp: "firefox", focusTitle: "Cats \"1\"")
        status.devices = [
            ControlStatus.Device(id: "AA:01", name: "Tap_1", connected: true, battery: 9, layer: "numbers",
                                 oneShotModifiers: ["KEY_LEFTCTRL"], lockedModifiers: ["KEY_LEFTSHIFT"], keymap: "browser"),
            ControlStatus.Device(id: "AA:02", name: "Tap_2", connected: false, battery: 80, role: "right"),
        ]
        let line = MonitorJSON.line(.control(.layerChanged(device: "AA:01", layer: "numbers")), status: status)
        #expect(line == #"{"event":"layer","running":true,"device":"AA:01","name":"Tap_1","connected":true,"role":"","layer":"numbers","locks":["shift"],"latched":["ctrl"],"keymap":"browser","app":"firefox","title":"Cats \"1\"","battery":{"AA:01":9,"AA:02":80},"text":"numbers [shift] (ctrl)","tooltip":"keymap main\nfocus firefox\nTap_1: connected, battery 9 %, layer numbers\nTap_2 (right hand): not connected, battery 80 %","class":["connected","layer-numbers","locked","latched","battery-low"],"percentage":9}"#)
        let stopped = try Self.parse(MonitorJSON.line(.stopped, status: nil))
        #expect(stopped["event"] as? String == "stopped")
        #expect(stopped["text"] as? String == "TAP off")
    }

    static let keymap = """
        name = "main"
        [layers.base]
        "x...." = "a"
        ".x..." = "lock(shift)"
        "..x.." = "toggle(numbers)"
        [layers.numbers]
        "x...." = "1"
        "..x.." = "toggle(numbers)"
        """

    @Test func theFeedWritesOneCompleteLinePerEvent() throws {
        let h = try DaemonTests.Harness(files: ["keymap.toml": Self.keymap], control: true)
        let client = try ControlClient(bus: .address(h.bus.address), loop: h.loop)
        var lines: [[String: Any]] = []
        let feed = MonitorFeed(client: client, batteryPollMilliseconds: 100) { line in
            if let object = try? Self.parse(line) { lines.append(object) } else { Issue.record("not JSON: \(line)") }
        }
        feed.start()
        defer { feed.stop() }
        #expect(h.loop.run(until: { lines.count == 1 }, timeoutMilliseconds: 5000))
        #expect(lines.first?["event"] as? String == "status")
        #expect(lines.first?["text"] as? String == "TAP off")

        h.devices.connect("AA:01", name: "Tap_1")
        h.settle(100)   // the WatchTaps call and the connect line
        h.devices.tap("AA:01", ".x...")   // lock(shift)
        h.devices.tap("AA:01", "..x..")   // toggle(numbers)
        try client.setFocus(appID: "foot", title: "~ \u{1B}[0m é")
        h.settle(200)   // the focus line has gone out (a battery change before its Status would ride on it)
        h.devices.setBattery("AA:01", 42)
        #expect(h.loop.run(until: { lines.contains { $0["event"] as? String == "battery" } }, timeoutMilliseconds: 5000))

        let events = lines.map { $0["event"] as? String ?? "?" }
        // The daemon signals a layer change before the tap that caused it.
        #expect(events == ["status", "connected", "tap", "layer", "tap", "focus", "battery"])
        try #require(lines.count == 7)   // the indexing below must not crash the test process
        let lock = lines[2]
        #expect((lock["tap"] as? [String: Any])?["chord"] as? String == ".x...")
        #expect((lock["tap"] as? [String: Any])?["action"] as? String == "lock(shift)")
        #expect(lock["locks"] as? [String] == ["shift"])
        let layer = lines[3]
        #expect(layer["layer"] as? String == "numbers")
        #expect(layer["text"] as? String == "numbers [shift]")
        #expect(layer["class"] as? [String] == ["connected", "layer-numbers", "locked"])
        #expect(lines[5]["app"] as? String == "foot")
        #expect(lines[5]["title"] as? String == "~ \u{1B}[0m é")
        #expect(lines[6]["battery"] as? [String: Int] == ["AA:01": 42])
        #expect(lines[6]["percentage"] as? Int == 42)
    }
}

/// The built binary: `monitor --json` against the real daemon, and the `run` options.
@Suite(.serialized) struct MonitorJSONCommandLineTests {
    typealias ToolRun = ControlCommandLineTests.ToolRun

    @Test func monitorJSONPrintsParsableLinesUntilInterrupted() throws {
        let h = try DaemonTests.Harness(files: ["keymap.toml": MonitorJSONTests.keymap], control: true)
        let run = try ToolRun(["monitor", "--json"], busAddress: h.bus.address, loop: h.loop)
        #expect(h.loop.run(until: { run.output.contains(#""event":"status""#) }, timeoutMilliseconds: 20_000))
        h.devices.connect("AA:01", name: "Tap_1")
        // The tool calls WatchTaps when it sees the daemon: tap until a tap line shows up.
        #expect(h.loop.run(until: { run.output.contains(#""event":"connected""#) }, timeoutMilliseconds: 5000))
        // "x...." types an a and changes no state, so repeating it until the tool sees one is harmless.
        let tapped = waitUntil(timeoutMilliseconds: 10_000) {
            h.devices.tap("AA:01", "x....")
            h.settle(100)
            return run.output.contains(#""event":"tap""#)
        }
        #expect(tapped)
        h.devices.tap("AA:01", ".x...")   // lock(shift)
        #expect(h.loop.run(until: { run.output.contains(#""chord":".x...""#) }, timeoutMilliseconds: 5000))
        kill(run.pid, SIGINT)
        #expect(run.finish(h.loop) == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        for line in lines { _ = try MonitorJSONTests.parse(line) }
        let tap = try MonitorJSONTests.parse(try #require(lines.first { $0.contains(#""chord":".x...""#) }))
        #expect(tap["device"] as? String == "AA:01")
        #expect(tap["locks"] as? [String] == ["shift"])
        #expect(tap["text"] as? String == "base [shift]")
    }

    @Test func runRejectsABadBatteryThreshold() throws {
        let h = try DaemonTests.Harness(control: false)
        let run = try ToolRun(["run", "--no-notifications", "--battery-low", "0"], busAddress: h.bus.address, loop: h.loop)
        #expect(run.finish(h.loop) != 0)
        #expect(run.output.contains("--battery-low must be a percentage, 1 to 100"))
    }
}
