import ChordMap
import EventLoop
import KeyboardLayout

/// Throughput of ``Engine`` on virtual time, measured with the monotonic clock.
///
/// The workload is built before timing starts so only the engine is measured:
/// - **typing**: the built-in TapCode keymap, chords drawn from English letter frequencies plus
///   Space, Shift, Backspace, Switch, digits and double/triple taps, 120-450 ms apart; the
///   engine's deadlines are honoured with `timeout(at:)` calls, as the daemon's timer would;
/// - **mouse**: velocity packets every 10 ms (the device's rate), with acceleration on;
/// - **mixed**: both interleaved, one tap per ~25 mouse packets (pointing while typing);
/// - **2-hands**: the same typing on two devices as a pair, with a keymap that adds 60 two-hand
///   chords to TapCode: taps alternate between the hands, and one in four is joined by the
///   other hand 20 ms later (a two-hand chord, or a pair that means nothing). Next to
///   **typing**, it shows what the wait for the other hand costs per event.
enum EngineBench {
    enum Step { case event(InputEvent, EngineTime), timeout(EngineTime) }

    /// US QWERTY, compiled once: the layout the workloads type on.
    static let characters = (try? CharacterMap(layout: .fallback, composeLocale: "C")) ?? .empty

    static func run(events: Int) {
        let keymap = KeymapLoader.builtinDefault
        let loadStart = MonotonicInstant.now()
        let loads = 200
        for _ in 0..<loads { _ = try? KeymapLoader.parse(source: builtinSource(keymap), file: "bench") }
        let loadNs = Double(MonotonicInstant.now().nanoseconds(since: loadStart)) / Double(loads)

        print("engine benchmark: \(events) events per workload, built-in TapCode keymap")
        let twoHands = (try? KeymapLoader.parse(source: twoHandSource, file: "two-hands")) ?? keymap
        for workload in ["typing", "2-hands", "mouse", "mixed"] {
            let map = workload == "2-hands" ? twoHands : keymap
            let steps = makeWorkload(workload, events: events, keymap: map)
            // Warm up once, then take the best of three runs (least disturbed by other processes).
            _ = measure(steps, keymap: map)
            let best = (0..<3).map { _ in measure(steps, keymap: map) }.min { $0.ns < $1.ns }!
            let perEvent = Double(best.ns) / Double(steps.count)
            print(String(describing: workload).padding(8) +
                  "\(format(1e9 / perEvent)) events/s  \(format(perEvent, digits: 1)) ns/event  " +
                  "(\(steps.count) calls incl. timeouts, \(best.outputs) outputs)")
        }
        print("keymap  parse + validate of the built-in keymap: \(format(loadNs / 1000, digits: 1)) µs")
        // A saved file with deeply nested arrays must not stall the daemon's loop: time to the
        // positioned error, by nesting depth (linear in the file's size, capped at 32 levels).
        let depths = [1, 10, 100, 1000, 10000, 100000]
        let nested = depths.map { n in
            let source = "[layers.base]\n\"x....\" = \"a\"\ndeep = " + String(repeating: "[", count: n) + "1" + String(repeating: "]", count: n) + "\n"
            let start = MonotonicInstant.now()
            for _ in 0..<20 { _ = try? KeymapLoader.parse(source: source, file: "nested") }
            return "\(n): \(format(Double(MonotonicInstant.now().nanoseconds(since: start)) / 20 / 1000, digits: 1)) µs"
        }
        print("nesting keymap with arrays nested N deep, load until the error: " + nested.joined(separator: ", "))
        // What a layout switch costs (never paid per key): compile + invert, then resolve the keymap.
        let layoutStart = MonotonicInstant.now()
        let layouts = ["de", "fr", "us(intl)", "ru"].compactMap { LayoutNames(spelling: $0) }
        let maps = layouts.compactMap { try? CharacterMap(layout: LayoutReport(.names($0), origin: "bench"), composeLocale: "C") }
        let compileNs = Double(MonotonicInstant.now().nanoseconds(since: layoutStart)) / Double(max(1, maps.count))
        let resolveStart = MonotonicInstant.now()
        for map in maps { _ = keymap.resolvingCharacters(with: map) }
        let resolveNs = Double(MonotonicInstant.now().nanoseconds(since: resolveStart)) / Double(max(1, maps.count))
        print("layout  compile + invert (de, fr, us(intl), ru): \(format(compileNs / 1e6, digits: 2)) ms; " +
              "resolve the built-in keymap: \(format(resolveNs / 1000, digits: 1)) µs")
    }

    /// TapCode plus two-hand chords (left 3, 6, ... 30 with right 4, 8, ... 24) on devices L and R.
    static let twoHandSource: String = {
        var s = "extends = \"builtin\"\nname = \"two hands\"\n[hands]\nleft = \"L\"\nright = \"R\"\n[layers.base]\n"
        let keys = ["f13", "f14", "f15", "f16", "f17", "f18", "ctrl+a", "ctrl+c", "ctrl+v", "ctrl+z"]
        for l in stride(from: 3, through: 30, by: 3) {
            for r in stride(from: 4, through: 24, by: 4) { s += "\"\(l)|\(r)\" = \"\(keys[(l + r) % keys.count])\"\n" }
        }
        return s
    }()

    static func makeEngine(_ keymap: Keymap) -> Engine {
        var engine = Engine(keymap: keymap, characters: characters)
        if !keymap.hands.isEmpty {
            engine.setRole(.left, for: "L")
            engine.setRole(.right, for: "R")
        }
        return engine
    }

    static func measure(_ steps: [Step], keymap: Keymap) -> (ns: UInt64, outputs: Int) {
        var engine = makeEngine(keymap)
        var outputs = 0
        let start = MonotonicInstant.now()
        for step in steps {
            switch step {
            case .event(let e, let t): outputs &+= engine.step(e, at: t).outputs.count
            case .timeout(let t): outputs &+= engine.timeout(at: t).outputs.count
            }
        }
        outputs &+= engine.releaseAll().count
        return (MonotonicInstant.now().nanoseconds(since: start), outputs)
    }

    /// Builds the event list, simulating the daemon's timer with a shadow engine so `timeout`
    /// calls land exactly where the real loop would make them.
    static func makeWorkload(_ kind: String, events: Int, keymap: Keymap) -> [Step] {
        var rng = Random(seed: 0x7A9)
        var shadow = makeEngine(keymap)
        var steps: [Step] = []
        steps.reserveCapacity(events + events / 4)
        var now = EngineTime.milliseconds(1)
        var deadline: EngineTime?
        var nextTapAt = now
        // Chords by rough English frequency (e t a o i n s h r ...), plus controls.
        let common: [UInt8] = [2, 6, 1, 8, 4, 3, 24, 30, 15, 5, 12, 16, 29, 10, 21, 13, 11, 17, 19, 18, 27, 9,
                               31, 31, 31, 31, 7, 14]
        var emitted = 0
        while emitted < events {
            let typing = kind == "typing" || kind == "2-hands"
            let tapNow = typing || (kind == "mixed" && now >= nextTapAt)
            let at = now
            if let d = deadline, d <= at {
                steps.append(.timeout(d))
                deadline = shadow.timeout(at: d).nextDeadline
            }
            let event: InputEvent
            if tapNow {
                var code = common[Int(rng.next() % UInt64(common.count))]
                if rng.next() % 200 == 0 { code = 28 }   // Switch now and then (and back)
                let device = kind == "2-hands" ? (emitted % 2 == 0 ? "L" : "R") : "tap"
                event = .tap(ChordTap(device: device, chord: Chord(rawValue: code)!))
                nextTapAt = now.adding(nanoseconds: (120 + rng.next() % 330) * 1_000_000)
            } else {
                let vx = Int(rng.next() % 41) - 20, vy = Int(rng.next() % 41) - 20
                event = .mouse(MouseInput(device: "tap", vx: vx, vy: vy, isRealMovement: rng.next() % 50 != 0))
            }
            steps.append(.event(event, at))
            deadline = shadow.step(event, at: at).nextDeadline
            emitted += 1
            // The other hand 20 ms later: a two-hand chord if the pair is bound.
            if kind == "2-hands", case .tap(let t) = event, rng.next() % 4 == 0 {
                let other = ChordTap(device: t.device == "L" ? "R" : "L", chord: Chord(rawValue: UInt8(4 * (1 + rng.next() % 6)))!)
                let at2 = at.adding(nanoseconds: 20_000_000)
                steps.append(.event(.tap(other), at2))
                deadline = shadow.step(.tap(other), at: at2).nextDeadline
                emitted += 1
            }
            // Typing: occasionally a quick second/third tap of the same chord (double/triple).
            if typing, case .tap(let t) = event, rng.next() % 8 == 0 {
                let again = at.adding(nanoseconds: 90_000_000)
                steps.append(.event(.tap(t), again))
                deadline = shadow.step(.tap(t), at: again).nextDeadline
                emitted += 1
                now = again
            }
            now = typing ? nextTapAt : now.adding(nanoseconds: 10_000_000)
        }
        return steps
    }

    /// The embedded keymap's text, for the parse timing (the built-in `Keymap` only exposes the model).
    static func builtinSource(_ keymap: Keymap) -> String { KeymapLoader.builtinSource }

    static func format(_ v: Double, digits: Int = 0) -> String {
        if digits == 0 {
            var s = String(Int(v.rounded()))
            var out = ""
            while s.count > 3 { out = "," + s.suffix(3) + out; s.removeLast(3) }
            return s + out
        }
        let scale = Double((0..<digits).reduce(1) { r, _ in r * 10 })
        let r = (v * scale).rounded() / scale
        return String(r)
    }

    /// xorshift64*: deterministic workloads, no Foundation.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
