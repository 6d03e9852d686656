import ChordMap
import TapBLE

/// Converts TapBLE's decoded inputs into the engine's events.
///
/// The two libraries do not know each other (TapBLE knows nothing of keys, ChordMap nothing
/// of BLE); this is the only place where their types meet. Inputs the engine has no use for
/// (raw sensor records, v2 configuration answers) map to nil.
enum InputTranslation {
    static func event(device: String, _ input: TapBLE.TapInput) -> InputEvent? {
        switch input {
        case .tap(let packet):
            guard let chord = Chord(rawValue: packet.fingers) else { return nil }   // 0: state-only packet
            let state = packet.keyboardState
            return .tap(ChordTap(device: device, chord: chord, repeatCount: state?.repeatCount,
                                          shift: state.map { Int($0.shift.rawValue) },
                                          switchState: state.map { $0.switchOn ? 1 : 0 }))
        case .mouse(let m):
            return .mouse(MouseInput(device: device, vx: Int(m.vx), vy: Int(m.vy), isRealMovement: m.isRealMovement))
        case .airGesture(let g):
            return .airGesture(device: device, code: Int(g.rawValue))
        case .airGestureState(let s):
            return .airGestureState(device: device, state: Int(s.raw))
        case .handState(let h):
            return .handState(device: device, state: Int(h.rawValue))
        case .unifiedAirGesture(let g):
            return .airGesture(device: device, code: v1Code(g))
        case .raw, .standby, .configAnswer:
            return nil
        }
    }

    /// v2 gesture codes (100-114) overlap the v1 hand states (100-105), so they must not reach
    /// the engine as they are: swipes and pinches become their v1 gestures (one keymap works for
    /// both protocols); the rest move to 200 + code, bindable by number in `[gestures]`.
    static func v1Code(_ g: UnifiedAirGesture) -> Int {
        switch g {
        case .left: 6          // left-one-finger
        case .right: 8         // right-one-finger
        case .up: 2            // up-one-finger
        case .down: 4          // down-one-finger
        case .pinchIndex: 12   // thumb-index
        case .pinchMiddle: 14  // thumb-middle
        default: 200 + Int(g.rawValue)
        }
    }
}

extension InputMode {
    /// The keymap's `input-mode(...)` spellings (``ChordMap/Action/inputModeNames``).
    init?(keymapName: String) {
        switch keymapName {
        case "text": self = .text
        case "controller": self = .controller
        case "controller+mouse": self = .controllerWithMouseHID
        case "controller+text": self = .controllerWithFullHID
        case "raw": self = .raw(RawSensitivity())
        default: return nil
        }
    }
}

extension XRState {
    /// The keymap's `xr-state(...)` spellings (``ChordMap/Action/xrStateNames``).
    init?(keymapName: String) {
        switch keymapName {
        case "air-mouse": self = .airMouse
        case "tapping": self = .tapping
        case "auto": self = .userControl
        default: return nil
        }
    }
}
