import ChordMap
import Testing
@testable import TapUinput

/// The pure parts of the notifications: rate limit, battery crossing, texts.
struct NotificationPolicyTests {
    @Test func perKeyIntervalDefersAndTheGlobalCapDrops() {
        var limit = NotificationRateLimit(perKeyMilliseconds: 1000, globalCap: 3, globalWindowMilliseconds: 10_000)
        #expect(limit.admit("connection A", now: 0) == .now)
        #expect(limit.admit("connection A", now: 400) == .later(1000))
        #expect(limit.admit("battery A", now: 500) == .now)       // another key is not held back
        #expect(limit.admit("connection A", now: 1000) == .now)
        #expect(limit.admit("connection B", now: 1100) == .drop)  // 3 in the last 10 s
        #expect(limit.admit("connection B", now: 10_001) == .now) // the first has left the window
    }

    @Test func batteryFiresOncePerCrossingAndRearmsAboveTheMargin() {
        var b = BatteryThreshold(lowPercent: 15, rearmMargin: 5)
        #expect(b.reading(50, device: "A") == false)
        #expect(b.reading(14, device: "A") == true)
        #expect(b.reading(13, device: "A") == false)
        #expect(b.reading(16, device: "A") == false)   // wobble: not re-armed
        #expect(b.reading(14, device: "A") == false)
        #expect(b.reading(9, device: "B") == true)     // first reading already low
        #expect(b.reading(20, device: "A") == false)   // charged: re-armed
        #expect(b.reading(12, device: "A") == true)
    }

    @Test func texts() {
        #expect(NotificationText.connected(id: "AA:01", name: "Tap_1").body == "Tap_1 (AA:01) is ready")
        #expect(NotificationText.disconnected(id: "AA:01", name: "", reason: "link lost").body == "AA:01: link lost")
        let error = KeymapError(diagnostics: [
            Diagnostic(location: SourceLocation(file: "/c/web.toml", line: 3, column: 11), message: "unknown key name \"entr\"", lineText: ""),
            Diagnostic(location: SourceLocation(file: "/c/web.toml", line: 4, column: 1), message: "x", lineText: ""),
        ])
        #expect(NotificationText.keymapError(error).body
                == "/c/web.toml:3:11: unknown key name \"entr\" (and 1 more)\nthe file keeps its last good version; `tap-uinput check` shows all")
        #expect(NotificationText.markupEscaped("a<b> & \"é\"") == "a&lt;b&gt; &amp; \"é\"")
    }
}
