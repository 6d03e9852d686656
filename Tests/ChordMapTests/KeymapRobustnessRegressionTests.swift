import Glibc
import Testing
@testable import ChordMap

/// Inputs the fuzzers (Fuzz/) found or that guard what they check; each once trapped, was
/// silently accepted, or was reported at the wrong place.
@Suite("Keymap and simulator regressions")
struct KeymapRobustnessRegressionTests {
    /// `Chord(spelling:)` converted a decimal to UInt8 unchecked: "256" trapped, in a keymap
    /// (`"256" = "a"`) and in a simulator script alike.
    @Test(arguments: ["256", "300", "65536", "99999999999999999999", "0", "32"])
    func decimalChordsOutOfRangeAreRejected(_ spelling: String) {
        #expect(Chord(spelling: spelling) == nil)
        #expect(Chord.problem(with: spelling)?.contains("out of range") == true)
        #expect(throws: Simulator.ScriptError.self) { _ = try Simulator.run(script: spelling, keymap: KeymapLoader.builtinDefault, characters: TestLayout.us) }
    }

    /// Fingers 0 is not a chord, so a state-only tap packet is never typed.
    @Test func noFingersIsNoChord() {
        #expect(Chord(rawValue: 0) == nil)
        #expect(Chord(spelling: ".....") == nil)
        #expect((1...31).allSatisfy { Chord(rawValue: UInt8($0)) != nil })
    }

    /// `+NNNms` multiplied by 1,000,000 without overflow checks: a delay over ~584 years trapped.
    @Test(arguments: ["18446744073709551615", "18446744073710", "9999999999999999"])
    func hugeDelaysSaturate(_ ms: String) throws {
        let out = try Simulator.run(script: "x.... +\(ms)ms\nx....\n.x...", keymap: KeymapLoader.builtinDefault, characters: TestLayout.us, text: TestLayout.usDecoder())
        #expect(out == "aae")
    }

    /// A key written with TOML escapes (`\u002E` is ".") is located where it is written, not at 1:1.
    @Test func escapedKeysAreLocated() {
        let source = "[layers.base]\n\"x...\\u002E\" = \"entr\"\n\"\\U0000002E\\bx...\" = \"a\"\n"
        do {
            _ = try KeymapLoader.parse(source: source, file: "e.toml")
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.map { "\($0.location.line):\($0.location.column)" } == ["2:16", "3:1"], "\(error)")
        }
    }

    /// Gesture codes arrive as one byte; a code outside 0-255 can never fire, so it is an error.
    @Test(arguments: ["-1", "256", "99999"])
    func gestureCodesOutOfRangeAreErrors(_ code: String) {
        do {
            _ = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"a\"\n[gestures]\n\"\(code)\" = \"click\"\n", file: "g.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("g.toml:4:1: error: gesture code \(code) is out of range"), "\(error)")
        }
    }

    @Test func inRangeGestureCodesStillLoad() throws {
        let k = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"a\"\n[gestures]\n\"0\" = \"click\"\n\"255\" = \"click\"\n", file: "g.toml")
        #expect(k.gestures.keys.sorted() == [0, 255])
    }
}

@Suite struct KeymapSpecialFileTests {
    /// A FIFO would block the reader (and with it the daemon's loop) until someone writes it.
    @Test func aFIFOIsRefusedNotOpened() {
        let path = "/tmp/tapuinput-fifo-\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: KeymapError.self) { try KeymapLoader.load(path: path) }
    }
}
