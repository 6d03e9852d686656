import TestKit
import Testing
@testable import ChordMap

private func tap(_ spelling: String, device: DeviceID = "tap") -> InputEvent {
    .tap(ChordTap(device: device, chord: Chord(spelling: spelling)!))
}

private func ms(_ v: UInt64) -> EngineTime { .milliseconds(v) }

private func frames(_ outputs: [Output]) -> [KeySet] {
    outputs.compactMap { if case .frame(let f) = $0 { f.pressed } else { nil } }
}

private let keyA = KeyCode(name: "a")!, keyN = KeyCode(name: "n")!

@Suite("Engine API")
struct EngineTests {
    @Test func aTypedLetterIsTwoFramesAndNeedsNoDeadline() {
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        let r = e.step(tap("xx..."), at: ms(5))
        #expect(frames(r.outputs) == [[keyN], []])
        #expect(r.nextDeadline == nil)
        #expect(e.isIdle)
    }

    @Test func aMultiTapChordAsksForItsDeadline() {
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        let r = e.step(tap("x...."), at: ms(1000))
        #expect(r.outputs.isEmpty)
        #expect(r.nextDeadline == ms(1300))
        #expect(!e.isIdle)
        #expect(e.timeout(at: ms(1299)).outputs.isEmpty)      // early timer: nothing yet
        let t = e.timeout(at: ms(1300))
        #expect(frames(t.outputs) == [[keyA], []])
        #expect(t.nextDeadline == nil && e.isIdle)
    }

    @Test func aLateStepResolvesTheExpiredTapFirst() {
        // The daemon's timer fired late: the next event arrives after the deadline.
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        _ = e.step(tap("x...."), at: ms(0))
        let r = e.step(tap("xx..."), at: ms(900))
        #expect(frames(r.outputs) == [[keyA], [], [keyN], []])
    }

    @Test func lateExpiriesResolveInDeadlineOrder() throws {
        let k = try KeymapLoader.parse(source: """
            [layers.base]
            "x...." = { tap = "a", double = "b" }
            ".x..." = { tap = "c", double = "d" }
            "..x.." = "e"
            """, file: "k.toml")
        var e = Engine(keymap: k, characters: TestLayout.us)
        _ = e.step(tap("x....", device: "z"), at: ms(0))
        _ = e.step(tap(".x...", device: "b"), at: ms(50))
        let r = e.step(tap("..x..", device: "b"), at: ms(2000))
        #expect(frames(r.outputs) == [[keyA], [], [KeyCode(name: "c")!], [], [KeyCode(name: "e")!], []])
    }

    @Test func deviceRepeatBitsAreIgnored() {
        // The firmware's repeat count follows its own stored layout; the host times taps itself.
        var plain = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        var flagged = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        let c = Chord(spelling: "x....")!
        for (i, t) in [ms(0), ms(100)].enumerated() {
            let a = plain.step(.tap(ChordTap(device: "d", chord: c)), at: t)
            let b = flagged.step(.tap(ChordTap(device: "d", chord: c, repeatCount: i + 1, shift: 2, switchState: 1)), at: t)
            #expect(a == b)
        }
        #expect(plain.timeout(at: ms(400)) == flagged.timeout(at: ms(400)))
    }

    @Test func releaseAllAlwaysEndsWithNothingPressed() {
        let keymap = try! KeymapLoader.parse(source: """
            [layers.base]
            "x...." = "drag-lock"
            ".x..." = { tap = "oneshot(ctrl)", double = "lock(shift)" }
            "..x.." = { tap = "a", double = "b", triple = "c" }
            "...x." = "toggle(two)"
            "....x" = "toggle-scroll"
            "xx..." = "right-click"
            [layers.two]
            "...x." = "toggle(two)"
            "..x.." = "layer(three)"
            [layers.three]
            "..x.." = "double-click"
            """, file: "r.toml")
        var rng = SplitMix(seed: 1)
        for _ in 0..<200 {
            var e = Engine(keymap: keymap, characters: TestLayout.us)
            var now = EngineTime.zero
            for _ in 0..<Int(rng.next() % 12) {
                now = now.adding(nanoseconds: (rng.next() % 400) * 1_000_000)
                if rng.next() % 4 == 0 {
                    _ = e.step(.mouse(MouseInput(device: "d", vx: Int(rng.next() % 9) - 4, vy: 3)), at: now)
                } else {
                    let chord = Chord(rawValue: [1, 2, 4, 8, 16, 3][Int(rng.next() % 6)])!
                    _ = e.step(.tap(ChordTap(device: rng.next() % 5 == 0 ? "other" : "d", chord: chord)), at: now)
                }
            }
            let out = e.releaseAll()
            #expect(out.first == .frame(Frame()))
            #expect(e.isIdle && e.nextDeadline == nil)
            #expect(e.activeLayer(of: "d") == "base")
        }
    }

    @Test func keymapsCanBeChosenPerDevice() throws {
        let other = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"z\"\n", file: "o.toml")
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        e.setKeymap(other, for: "right")
        #expect(frames(e.step(tap("x....", device: "right"), at: ms(0)).outputs) == [[KeyCode(name: "z")!], []])
        #expect(e.step(tap("x....", device: "left"), at: ms(0)).nextDeadline == ms(300))
        e.setKeymap(nil, for: "right")
        #expect(e.keymap(for: "right").name == "TapCode (English)")
    }

    @Test func replacingTheKeymapKeepsALayerOfTheSameName() throws {
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        _ = e.step(tap("..xxx"), at: ms(0))
        #expect(e.activeLayer(of: "tap") == "numbers")
        let similar = try KeymapLoader.parse(source: "extends = \"builtin\"\nname = \"x\"\n", file: "x.toml")
        e.replaceKeymap(similar)
        #expect(e.activeLayer(of: "tap") == "numbers")
        let flat = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"a\"\n", file: "f.toml")
        e.replaceKeymap(flat)
        #expect(e.activeLayer(of: "tap") == "base")
    }

    @Test func modifiersComeWithTheKeyAndLayerChangesAreReported() {
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        _ = e.step(tap("xxx.."), at: ms(0))
        let r = e.step(tap("xx..."), at: ms(100))            // resolves Shift, then types N
        #expect(frames(r.outputs) == [[.leftShift, keyN], []])
        let s = e.step(tap("..xxx"), at: ms(200))
        // The built-in keymap keeps the default pulse for a toggled layer.
        #expect(s.outputs == [.layerChanged(device: "tap", layer: "numbers"), .vibrate(device: "tap", durationsMs: FeedbackPatterns.engaged)])
    }

    @Test func statusReportsTheDeviceState() {
        var e = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        #expect(e.status(of: "t") == DeviceStatus(layer: "base", oneShotModifiers: [], lockedModifiers: [],
                                                 pendingChord: nil, pendingCount: 0, scrollMode: false, held: []))
        _ = e.step(tap("xxx.."), at: ms(0))
        #expect(e.status(of: "tap").pendingChord == Chord(spelling: "xxx..") && e.status(of: "tap").pendingCount == 1)
        _ = e.step(tap("xxx..", device: "t"), at: ms(0))
        _ = e.step(tap("xxx..", device: "t"), at: ms(100))      // double Shift: locked
        _ = e.step(tap("..xxx", device: "t"), at: ms(200))
        _ = e.step(tap("x....", device: "t"), at: ms(1000))
        let s = e.status(of: "t")
        #expect(s.layer == "numbers" && s.lockedModifiers == [.leftShift] && s.oneShotModifiers.isEmpty)
        #expect(s.pendingChord == nil)   // digits have no multi-tap in the numbers layer
        // Any step expires every device's due taps: "tap"'s Shift resolved into an armed one-shot.
        #expect(e.status(of: "tap").pendingChord == nil && e.status(of: "tap").oneShotModifiers == [.leftShift])
    }

    @Test func commandsNeedPermissionEvenInAHandBuiltKeymap() {
        let layer = Layer(name: "base", bindings: [Chord.thumb: Binding(tap: .run(["true"]))])
        var e = Engine(keymap: Keymap(name: "hand", layers: [layer]), characters: TestLayout.us)
        #expect(e.step(tap("x...."), at: ms(0)).outputs.isEmpty)
        var allowed = Keymap(name: "hand", layers: [layer])
        allowed.options.allowCommands = true
        var f = Engine(keymap: allowed, characters: TestLayout.us)
        #expect(f.step(tap("x...."), at: ms(0)).outputs == [.run(device: "tap", argv: ["true"])])
    }

    @Test func pointerMotionCarriesRemaindersBothWays() {
        var s = MouseSettings()
        s.sensitivity = 0.5
        var p = PointerState()
        var total: Int32 = 0
        for _ in 0..<10 { total += p.frame(vx: 1, vy: 0, settings: s, baseline: [])?.relX ?? 0 }
        #expect(total == 5)
        for _ in 0..<10 { total += p.frame(vx: -1, vy: 0, settings: s, baseline: [])?.relX ?? 0 }
        #expect(total == 0)
        #expect(p.frame(vx: Int(Int32.max), vy: 0, settings: MouseSettings(), baseline: [])?.relX == Int32.max)
    }

    @Test func handBuiltKeymapsCannotCrashTheEngine() {
        var e = Engine(keymap: Keymap(name: "empty", layers: []), characters: TestLayout.us)
        #expect(e.step(tap("x...."), at: ms(0)).outputs.isEmpty)
        let odd = Layer(name: "base", bindings: [.thumb: Binding(tap: .toggleLayer("missing")), .index: Binding(tap: .oneShotLayer("gone"))])
        e.replaceKeymap(Keymap(name: "odd", layers: [odd]))
        _ = e.step(tap("x...."), at: ms(1))
        _ = e.step(tap(".x..."), at: ms(2))
        #expect(e.activeLayer(of: "tap") == "base")
    }

    @Test func engineTimeSaturates() {
        #expect(EngineTime(nanoseconds: .max - 1).adding(nanoseconds: 10) == EngineTime(nanoseconds: .max))
    }
}

@Suite("Simulator")
struct SimulatorTests {
    @Test func thePangramIsTypedExactly() throws {
        let fixture = Fixture.all(in: "engine").first { $0.name == "pangram.t" }!
        let text = try Simulator.run(script: fixture.script, keymap: KeymapLoader.builtinDefault, characters: TestLayout.us, text: TestLayout.usDecoder())
        #expect(text == #"Sphinx of black quartz, judge my vow! "42" (yes): 7 + 8 = 15?"#)
    }

    @Test(arguments: ["x.x.. +5", "mouse 1", "gesture x", "xxxxxx", "device", "+100ms"])
    func badScriptLinesAreReported(_ line: String) {
        #expect(throws: Simulator.ScriptError.self) {
            _ = try Simulator.run(script: "xx...\n" + line, keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        }
    }

    @Test func scriptsWithCRLFLineEndingsWork() throws {
        #expect(try Simulator.run(script: "xx...\r\nxx... +10ms\r\n.xxx.\r\n", keymap: KeymapLoader.builtinDefault, characters: TestLayout.us, text: TestLayout.usDecoder()) == "n")
    }

    @Test func capsLockKeyIsHonouredInTextMode() throws {
        let k = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"capslock\"\n\".x...\" = \"a\"\n\"..x..\" = \"shift+a\"\n", file: "c.toml")
        #expect(try Simulator.run(script: ".x...\nx....\n.x...\n..x..\nx....\n.x...", keymap: k, characters: TestLayout.us, text: TestLayout.usDecoder()) == "aAaa")
    }
}

@Suite("Two hands, properties")
struct TwoHandPropertyTests {
    static let oneHand = """
        [hands]
        left = "L"
        right = "R"
        [layers.base]
        "x...." = "drag-lock"
        ".x..." = { tap = "oneshot(ctrl)", double = "lock(shift)" }
        "..x.." = { tap = "a", double = "b", triple = "c" }
        "...x." = "toggle(two)"
        "xx..." = "right-click"
        "x...., ..x.." = "tab"
        [layers.two]
        "...x." = "toggle(two)"
        "..x.." = "d"
        """

    /// Runs timed taps through `engine`, honouring its deadlines as the daemon's timer does.
    static func run(_ taps: [(device: DeviceID, chord: Chord, at: EngineTime)], _ engine: inout Engine) -> [Output] {
        var out: [Output] = []
        for t in taps {
            while let d = engine.nextDeadline, d < t.at { out += engine.timeout(at: d).outputs }
            out += engine.step(.tap(ChordTap(device: t.device, chord: t.chord)), at: t.at).outputs
        }
        while let d = engine.nextDeadline { out += engine.timeout(at: d).outputs }
        return out
    }

    static func randomTaps(_ rng: inout SplitMix, devices: [DeviceID]) -> [(device: DeviceID, chord: Chord, at: EngineTime)] {
        var now = EngineTime.zero
        return (0..<Int(rng.next() % 16)).map { _ in
            now = now.adding(nanoseconds: (rng.next() % 400) * 1_000_000)
            return (devices[Int(rng.next() % UInt64(devices.count))], Chord(rawValue: [1, 2, 4, 8, 3][Int(rng.next() % 5)])!, now)
        }
    }

    /// With no two-hand chord in the keymap, a pair types exactly what one device typing every
    /// tap of both hands types: no tap waits for the other hand, and the hands share one state.
    @Test func withoutTwoHandChordsAPairIsOneDevice() throws {
        let pairMap = try KeymapLoader.parse(source: Self.oneHand, file: "p.toml")
        var single = pairMap
        single.hands = HandRoles()
        var rng = SplitMix(seed: 7)
        for _ in 0..<300 {
            let taps = Self.randomTaps(&rng, devices: ["L", "R"])
            var pair = Engine(keymap: pairMap, characters: TestLayout.us)
            pair.setRole(.left, for: "L")
            pair.setRole(.right, for: "R")
            var one = Engine(keymap: single, characters: TestLayout.us)
            // Layer changes and pulses name the device that tapped, which differs by construction:
            // compare pulses without it.
            let neutral: (Output) -> Output? = {
                switch $0 {
                case .layerChanged: nil
                case .vibrate(_, let pattern): .vibrate(device: "", durationsMs: pattern)
                default: $0
                }
            }
            let a = Self.run(taps, &pair).compactMap(neutral)
            let b = Self.run(taps.map { ("solo", $0.chord, $0.at) }, &one).compactMap(neutral)
            #expect(a == b)
        }
    }

    /// A hand disconnecting at any point leaves nothing of the pair held or pending, and a
    /// device outside the pair keeps what it holds.
    @Test func aDisconnectingHandReleasesThePairOnly() throws {
        let source = Self.oneHand + "\n\"....x|x....\" = \"space\"\n\".....|..x..\" = \"e\"\n"
        let keymap = try KeymapLoader.parse(source: source, file: "p.toml")
        var rng = SplitMix(seed: 11)
        for _ in 0..<300 {
            var e = Engine(keymap: keymap, characters: TestLayout.us)
            e.setRole(.left, for: "L")
            e.setRole(.right, for: "R")
            // Drag lock on a device outside the pair (the thumb may start a sequence: let it end).
            _ = e.step(.tap(ChordTap(device: "other", chord: .thumb)), at: .zero)
            _ = e.timeout(at: .milliseconds(1000))
            #expect(e.status(of: "other").held == [KeyCode(rawValue: 0x110)])
            for t in Self.randomTaps(&rng, devices: ["L", "R"]) {
                _ = e.step(.tap(ChordTap(device: t.device, chord: t.chord)), at: t.at.adding(nanoseconds: 1_000_000_000))
            }
            let out = e.disconnect(rng.next() % 2 == 0 ? "L" : "R")
            #expect(out.first == .frame(Frame(pressed: [KeyCode(rawValue: 0x110)])))
            #expect(e.status(of: "L").held.isEmpty && e.status(of: "R").pendingCount == 0)
            #expect(e.nextDeadline == nil)
            #expect(e.status(of: "other").held == [KeyCode(rawValue: 0x110)])
        }
    }
}
