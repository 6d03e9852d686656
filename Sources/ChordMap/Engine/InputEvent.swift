/// A device's id as the BLE side reports it: its address, `"AA:BB:CC:DD:EE:FF"` (TapBLE declares the
/// same; the two modules do not depend on each other). Keymaps are chosen per device.
public typealias DeviceID = String

/// A tap as the engine sees it: the chord and the device it came from (TapBLE's `TapInput` is
/// the decoded notification this is made from).
public struct ChordTap: Sendable, Equatable {
    public var device: DeviceID
    public var chord: Chord
    /// Device-reported multi-tap count from tap byte 3 (1, 2 or 3), if the packet carried it.
    ///
    /// The engine **ignores** it: in controller mode the firmware sends one notification per
    /// physical tap at once, and counts repeats only for chords that the layout stored *on the
    /// device* binds (tap-protocol §2.1). Our keymap differs from that layout, so the host times
    /// multi-taps itself. Kept for logging and the monitor.
    public var repeatCount: Int?
    /// Device-reported shift state (0 off, 1 on, 2 locked); ignored for the same reason.
    public var shift: Int?
    /// Device-reported switch state (0 off, 1 on); ignored for the same reason.
    public var switchState: Int?

    public init(device: DeviceID, chord: Chord, repeatCount: Int? = nil, shift: Int? = nil, switchState: Int? = nil) {
        self.device = device
        self.chord = chord
        self.repeatCount = repeatCount
        self.shift = shift
        self.switchState = switchState
    }
}

/// One mouse velocity packet.
public struct MouseInput: Sendable, Equatable {
    public var device: DeviceID
    public var vx: Int
    public var vy: Int
    /// The packet's proximity flag: false means the device saw no surface, so the packet is dropped.
    public var isRealMovement: Bool

    public init(device: DeviceID, vx: Int, vy: Int, isRealMovement: Bool = true) {
        self.device = device
        self.vx = vx
        self.vy = vy
        self.isRealMovement = isRealMovement
    }
}

/// Everything the engine reacts to.
public enum InputEvent: Sendable, Equatable {
    case tap(ChordTap)
    case mouse(MouseInput)
    /// An air gesture code (tap-protocol §2.3), e.g. 2 = up one finger, 10 = pinch.
    case airGesture(device: DeviceID, code: Int)
    /// The device entered (1) or left (0) its air-gesture / air-mouse state.
    case airGestureState(device: DeviceID, state: Int)
    /// TapXR spatial hand state 100...105 (sent continuously).
    case handState(device: DeviceID, state: Int)

    /// The device the event came from.
    public var device: DeviceID {
        switch self {
        case .tap(let t): t.device
        case .mouse(let m): m.device
        case .airGesture(let d, _), .airGestureState(let d, _), .handState(let d, _): d
        }
    }
}
