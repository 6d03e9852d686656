/// One `SYN_REPORT` worth of output.
///
/// `pressed` is the *complete* desired set of held keys and buttons after this frame; the writer
/// diffs it against the previous frame's set and emits only the changes, pressing modifiers first
/// and releasing them last. Motion and wheel are deltas for this frame only.
public struct Frame: Equatable, Sendable {
    public var pressed: KeySet
    public var relX: Int32
    public var relY: Int32
    /// Vertical wheel in hi-res units (120 = one notch, positive = away from the user).
    public var wheel: Int32
    /// Horizontal wheel in hi-res units (positive = right).
    public var hwheel: Int32

    public init(pressed: KeySet = [], relX: Int32 = 0, relY: Int32 = 0, wheel: Int32 = 0, hwheel: Int32 = 0) {
        self.pressed = pressed
        self.relX = relX
        self.relY = relY
        self.wheel = wheel
        self.hwheel = hwheel
    }
}

/// What the engine asks the rest of the daemon to do.
public enum Output: Equatable, Sendable {
    case frame(Frame)
    /// Haptic pattern on the tapping device: on, off, on, ... in milliseconds.
    case vibrate(device: DeviceID, durationsMs: [Int])
    /// The tapping device's input mode: `"text" | "controller" | "controller+mouse" | "controller+text" | "raw"`.
    case setInputMode(device: DeviceID, mode: String)
    /// The tapping device's TapXR state: `"air-mouse" | "tapping" | "auto"`.
    case setXRState(device: DeviceID, state: String)
    /// Start a program (argv, no shell). Only produced when the keymap sets `allow-commands = true`.
    case run(device: DeviceID, argv: [String])
    /// The device's active layer changed (for the monitor / control interface; no key effect).
    case layerChanged(device: DeviceID, layer: String)
}

/// The result of feeding the engine one event or timeout.
public struct StepResult: Sendable, Equatable {
    public var outputs: [Output]
    /// When to call ``Engine/timeout(at:)`` next; nil when nothing is pending.
    public var nextDeadline: EngineTime?

    public init(outputs: [Output] = [], nextDeadline: EngineTime? = nil) {
        self.outputs = outputs
        self.nextDeadline = nextDeadline
    }
}
