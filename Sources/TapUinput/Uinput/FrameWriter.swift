import CEvdev
import ChordMap

/// Turns desired states into kernel events: evdev's "desired set" idea.
///
/// The engine says which keys and buttons should be held after each frame; the writer
/// emits only the difference from what it last wrote, one `SYN_REPORT` per device per frame.
/// Within a frame it releases ordinary keys first and modifiers after them, then presses
/// modifiers first and ordinary keys after them, so a modifier never leaks onto the wrong
/// key. Because the writer always knows what it holds, ``releaseAll()`` can always bring
/// the kernel back to "nothing pressed": stuck keys are impossible by construction.
///
/// Wheel values arrive in high-resolution units (120 = one notch). Each frame writes the
/// hi-res value and, once a whole notch has accumulated, the classic `REL_WHEEL` count, so
/// both old and new clients scroll by the same amount.
public final class FrameWriter {
    private let sink: EventSink
    /// Codes some device can report: the keyboard's keys and the pointer's buttons.
    private let supported: KeySet
    /// Codes that belong to the pointer device (``DeviceProfile/role(forKey:)``).
    private let pointerRole = KeySet((0..<UInt16(KeySet.capacity)).filter { DeviceProfile.role(forKey: $0) == .pointer }
        .map(KeyCode.init(rawValue:)))
    /// What the kernel has been told is held, per the last successful writes.
    private var heldKeys = KeySet()
    private var wheelRemainder: Int32 = 0
    private var hwheelRemainder: Int32 = 0
    // Reused from frame to frame: the hot path allocates nothing once they have grown.
    private var keyboardEvents: [RawInputEvent] = []
    private var pointerEvents: [RawInputEvent] = []
    /// Codes dropped because no device can report them (a keymap naming an exotic key).
    public private(set) var unsupportedDrops = 0

    public init(sink: EventSink, keyboard: DeviceProfile = .keyboard, pointer: DeviceProfile = .pointer) {
        self.sink = sink
        supported = KeySet((keyboard.keys.filter { DeviceProfile.role(forKey: $0) == .keyboard }
            + pointer.keys.filter { DeviceProfile.role(forKey: $0) == .pointer }).map(KeyCode.init(rawValue:)))
        keyboardEvents.reserveCapacity(16)
        pointerEvents.reserveCapacity(16)
    }

    /// What the kernel has been told is held, per the last successful writes.
    public var held: Set<UInt16> { Set(heldKeys.map(\.rawValue)) }

    /// ``write(pressed:relX:relY:wheel:hwheel:)`` with codes as numbers (tests, tools).
    public func write(pressed codes: [UInt16], relX: Int32 = 0, relY: Int32 = 0, wheel: Int32 = 0, hwheel: Int32 = 0) throws {
        var keys = KeySet()
        for c in codes {
            if Int(c) < KeySet.capacity { keys.insert(KeyCode(rawValue: c)) } else { unsupportedDrops += 1 }
        }
        try write(pressed: keys, relX: relX, relY: relY, wheel: wheel, hwheel: hwheel)
    }

    /// Writes one frame: the complete set of keys and buttons to hold afterwards, plus
    /// relative motion and wheel deltas.
    public func write(pressed desired: KeySet, relX: Int32 = 0, relY: Int32 = 0, wheel: Int32 = 0, hwheel: Int32 = 0) throws {
        keyboardEvents.removeAll(keepingCapacity: true)
        pointerEvents.removeAll(keepingCapacity: true)
        let wanted = desired.intersection(supported)
        unsupportedDrops += desired.count - wanted.count
        let released = heldKeys.subtracting(wanted), pressed = wanted.subtracting(heldKeys)
        // Ordinary keys released first, modifiers last; modifiers pressed first, ordinary keys last.
        let modifiers = KeyCode.modifiers
        appendKeys(released.subtracting(modifiers), down: false)
        appendKeys(released.intersection(modifiers), down: false)
        appendKeys(pressed.intersection(modifiers), down: true)
        appendKeys(pressed.subtracting(modifiers), down: true)
        if relX != 0 { pointerEvents.append(.rel(RelativeAxis.x, relX)) }
        if relY != 0 { pointerEvents.append(.rel(RelativeAxis.y, relY)) }
        appendWheel(wheel, hiRes: RelativeAxis.wheelHiRes, notch: RelativeAxis.wheel, remainder: &wheelRemainder)
        appendWheel(hwheel, hiRes: RelativeAxis.hwheelHiRes, notch: RelativeAxis.hwheel, remainder: &hwheelRemainder)
        try flush(&keyboardEvents, to: .keyboard, pressed: pressed.subtracting(pointerRole),
                  released: released.subtracting(pointerRole))
        try flush(&pointerEvents, to: .pointer, pressed: pressed.intersection(pointerRole),
                  released: released.intersection(pointerRole))
    }

    /// Releases everything held. Used on disconnect, reload, suspend, signals and keymap
    /// switches. Forgets the holds even if writing fails, since a failed write means the
    /// device is gone and the kernel released its keys with it.
    public func releaseAll() throws {
        defer { heldKeys = KeySet(); wheelRemainder = 0; hwheelRemainder = 0 }
        try write(pressed: KeySet())
    }

    private func appendKeys(_ keys: KeySet, down: Bool) {
        for key in keys {
            let code = key.rawValue
            if DeviceProfile.role(forKey: code) == .pointer {
                pointerEvents.append(.key(code, down))
            } else {
                keyboardEvents.append(.key(code, down))
            }
        }
    }

    private func appendWheel(_ hiRes: Int32, hiRes hiResCode: UInt16, notch notchCode: UInt16, remainder: inout Int32) {
        guard hiRes != 0 else { return }
        pointerEvents.append(.rel(hiResCode, hiRes))
        remainder += hiRes
        let notches = remainder / 120        // truncates toward zero: partial notches carry
        if notches != 0 {
            pointerEvents.append(.rel(notchCode, notches))
            remainder -= notches * 120
        }
    }

    private func flush(_ events: inout [RawInputEvent], to role: DeviceProfile.Role, pressed: KeySet, released: KeySet) throws {
        guard !events.isEmpty else { return }
        // Presses count as held before the write and releases only after it succeeds: a write
        // that fails half-way may have pressed a key, and then a later release must still try.
        heldKeys.formUnion(pressed)
        events.append(.synReport)
        try sink.write(events, to: role)
        heldKeys.subtract(released)
    }
}
