/// Runs a tap script through the ``Engine`` on virtual time and prints what it would emit.
///
/// Script language, one event per line (`#` starts a comment):
///
/// | line | meaning |
/// |---|---|
/// | `x.x..` / `5` / `thumb+middle` | a tap of that chord |
/// | `mouse VX VY` | a mouse packet; append `unreal` for one without surface contact |
/// | `gesture CODE`, `gesture-state S`, `hand STATE` | air gesture, air-gesture state, TapXR hand state |
/// | `device NAME` | later events come from this device (takes no time); a device `[hands]` names is connected as that hand |
/// | `release-all` | what the daemon does on suspend |
/// | `disconnect` | the current device went away (what the daemon does then) |
/// | `connect` | what the daemon does when the current device connects (its pulse) |
/// | `wait` | nothing happens (use it with a time) |
///
/// Any event line may end with `+NNNms`: the time until the next line (default 1000 ms, longer
/// than any multi-tap window). The first line happens at 0 ms. Deadlines the engine asks for are
/// honoured exactly, as the daemon's timer would.
///
/// Output, one event per line: `@120ms` whenever output happens at a new time; key changes as
/// `KEY_A 1` / `KEY_A 0` in the order the daemon writes them (releases, modifier presses, presses,
/// modifier releases); motion as `REL_X 5`, `REL_Y -3`, `REL_WHEEL_HI_RES 120`,
/// `REL_HWHEEL_HI_RES -120`; other outputs as `layer numbers`, `vibrate 100 50`,
/// `input-mode controller`, `xr-state air-mouse`, `run argv...`. With a ``KeyTextDecoder``, the output
/// is instead the text a desktop would show: the decoder gets every key change in the order the
/// daemon writes them (the `KeyboardLayout` target's decoder applies the layout, dead keys,
/// Shift and Caps Lock, Enter as a newline, Backspace deleting).
public enum Simulator {
    /// A script line that is not understood.
    public struct ScriptError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "script line \(line): \(message)" }
    }

    /// The default device name used before any `device` line.
    public static let defaultDevice: DeviceID = "tap"

    public static func run(script: String, keymap: Keymap, characters: CharacterMap,
                           text decoder: (any KeyTextDecoder)? = nil) throws(ScriptError) -> String {
        var engine = Engine(keymap: keymap, characters: characters)
        var printer = Printer(decoder: decoder)
        var now = EngineTime.zero
        var device = defaultDevice
        func flush(until t: EngineTime) {
            while let d = engine.nextDeadline, d <= t {
                printer.print(engine.timeout(at: d).outputs, at: d)
            }
        }
        for (n, raw) in script.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = (raw.firstIndex(of: "#").map { raw[..<$0] } ?? raw[...]).trimmingSpaces
            if line.isEmpty { continue }
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var delay: UInt64 = 1000
            if let last = words.last, last.hasPrefix("+") {
                guard last.hasSuffix("ms"), let ms = UInt64(last.dropFirst().dropLast(2)) else {
                    throw ScriptError(line: n + 1, message: "bad delay \"\(last)\" (write +250ms)")
                }
                delay = ms
                words.removeLast()
            }
            guard let command = words.first else { throw ScriptError(line: n + 1, message: "a delay needs an event (use wait)") }
            let args = Array(words.dropFirst())
            flush(until: now)
            let event: InputEvent?
            switch command {
            case "mouse":
                guard args.count >= 2, let vx = Int(args[0]), let vy = Int(args[1]),
                      args.count == 2 || (args.count == 3 && args[2] == "unreal") else {
                    throw ScriptError(line: n + 1, message: "write: mouse VX VY [unreal]")
                }
                event = .mouse(MouseInput(device: device, vx: vx, vy: vy, isRealMovement: args.count == 2))
            case "gesture", "gesture-state", "hand":
                guard args.count == 1, let v = Int(args[0]) else { throw ScriptError(line: n + 1, message: "write: \(command) NUMBER") }
                event = command == "gesture" ? .airGesture(device: device, code: v)
                    : command == "hand" ? .handState(device: device, state: v) : .airGestureState(device: device, state: v)
            case "device":
                guard args.count == 1 else { throw ScriptError(line: n + 1, message: "write: device NAME") }
                device = args[0]
                // A device the keymap's [hands] names is one hand of the pair from now on.
                if let hand = keymap.hands.role(address: device) { engine.setRole(hand, for: device) }
                continue
            case "release-all":
                printer.print(engine.releaseAll(), at: now)
                event = nil
            case "disconnect":
                printer.print(engine.disconnect(device), at: now)
                event = nil
            case "connect":
                printer.print(engine.deviceConnected(device), at: now)
                event = nil
            case "wait":
                event = nil
            default:
                guard args.isEmpty, let chord = Chord(spelling: command) else {
                    throw ScriptError(line: n + 1, message: Chord.problem(with: command).map { "\($0)" } ?? "unknown command \"\(command)\"")
                }
                event = .tap(ChordTap(device: device, chord: chord))
            }
            if let event { printer.print(engine.step(event, at: now).outputs, at: now) }
            // Saturating: a huge `+NNNms` means "forever", not an overflow trap.
            let (ns, overflow) = delay.multipliedReportingOverflow(by: 1_000_000)
            now = now.adding(nanoseconds: overflow ? .max : ns)
        }
        flush(until: EngineTime(nanoseconds: .max))
        return printer.output
    }
}

/// Turns key changes into the text an application would receive, for the simulator's text mode.
public protocol KeyTextDecoder {
    /// One key went down (`pressed`) or up, in the order the daemon writes them.
    mutating func key(_ key: KeyCode, pressed: Bool)
    /// Everything typed so far.
    var text: String { get }
}

/// Formats outputs as event lines or, with a decoder, as typed text.
struct Printer {
    private var decoder: (any KeyTextDecoder)?
    private var lines = ""
    private var previous: KeySet = []
    private var lastTime: EngineTime?

    init(decoder: (any KeyTextDecoder)?) { self.decoder = decoder }

    var output: String { decoder?.text ?? lines }

    mutating func print(_ outputs: [Output], at time: EngineTime) {
        for o in outputs {
            if decoder != nil {
                if case .frame(let f) = o { type(f) }
            } else {
                event(o, at: time)
            }
        }
    }

    private mutating func line(_ s: String, at time: EngineTime) {
        if lastTime != time {
            lines += "@\(time.nanoseconds / 1_000_000)ms\n"
            lastTime = time
        }
        lines += s + "\n"
    }

    private mutating func event(_ o: Output, at t: EngineTime) {
        switch o {
        case .frame(let f):
            for (key, value) in Self.changes(from: previous, to: f.pressed) { line("\(key.name) \(value)", at: t) }
            previous = f.pressed
            if f.relX != 0 { line("REL_X \(f.relX)", at: t) }
            if f.relY != 0 { line("REL_Y \(f.relY)", at: t) }
            if f.wheel != 0 { line("REL_WHEEL_HI_RES \(f.wheel)", at: t) }
            if f.hwheel != 0 { line("REL_HWHEEL_HI_RES \(f.hwheel)", at: t) }
        case .vibrate(_, let d): line("vibrate " + d.map(String.init).joined(separator: " "), at: t)
        case .setInputMode(_, let m): line("input-mode \(m)", at: t)
        case .setXRState(_, let s): line("xr-state \(s)", at: t)
        case .run(_, let argv): line("run " + argv.joined(separator: " "), at: t)
        case .layerChanged(_, let l): line("layer \(l)", at: t)
        }
    }

    /// Key changes between two frames in the order the daemon writes them: releases of ordinary
    /// keys, presses of modifiers, presses of ordinary keys, releases of modifiers.
    static func changes(from old: KeySet, to new: KeySet) -> [(KeyCode, Int)] {
        let released = old.subtracting(new).sorted(), pressed = new.subtracting(old).sorted()
        return released.filter { !$0.isModifier }.map { ($0, 0) }
            + pressed.filter(\.isModifier).map { ($0, 1) }
            + pressed.filter { !$0.isModifier }.map { ($0, 1) }
            + released.filter(\.isModifier).map { ($0, 0) }
    }

    private mutating func type(_ f: Frame) {
        for (key, value) in Self.changes(from: previous, to: f.pressed) { decoder?.key(key, pressed: value == 1) }
        previous = f.pressed
    }
}
