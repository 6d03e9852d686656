import CEvdev

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
    /// Modifier keys: pressed first, released last.
    public static let modifiers: Set<UInt16> = Set([
        KEY_LEFTCTRL, KEY_RIGHTCTRL, KEY_LEFTSHIFT, KEY_RIGHTSHIFT,
        KEY_LEFTALT, KEY_RIGHTALT, KEY_LEFTMETA, KEY_RIGHTMETA,
    ].map { UInt16($0) })

    private let sink: EventSink
    private let keyboard: DeviceProfile
    private let pointer: DeviceProfile
    /// What the kernel has been told is held, per the last successful writes.
    public private(set) var held: Set<UInt16> = []
    private var wheelRemainder: Int32 = 0
    private var hwheelRemainder: Int32 = 0
    /// Codes dropped because no device can report them (a keymap naming an exotic key).
    public private(set) var unsupportedDrops = 0

    public init(sink: EventSink, keyboard: DeviceProfile = .keyboard, pointer: DeviceProfile = .pointer) {
        self.sink = sink; self.keyboard = keyboard; self.pointer = pointer
    }

    /// Writes one frame: the complete set of keys and buttons to hold afterwards, plus
    /// relative motion and wheel deltas.
    public func write(pressed desired: Set<UInt16>, relX: Int32 = 0, relY: Int32 = 0,
                      wheel: Int32 = 0, hwheel: Int32 = 0) throws {
        var keyboardEvents: [RawInputEvent] = []
        var pointerEvents: [RawInputEvent] = []
        let wanted = desired.count == held.count && desired == held ? held : desired.filter(isSupported)
        if wanted != held {
            unsupportedDrops += desired.count - wanted.count
            for (code, down) in Self.transitions(from: held, to: wanted) {
                if DeviceProfile.role(forKey: code) == .pointer {
                    pointerEvents.append(.key(code, down))
                } else {
                    keyboardEvents.append(.key(code, down))
                }
            }
        }
        if relX != 0 { pointerEvents.append(.rel(RelativeAxis.x, relX)) }
        if relY != 0 { pointerEvents.append(.rel(RelativeAxis.y, relY)) }
        appendWheel(wheel, hiRes: RelativeAxis.wheelHiRes, notch: RelativeAxis.wheel,
                    remainder: &wheelRemainder, to: &pointerEvents)
        appendWheel(hwheel, hiRes: RelativeAxis.hwheelHiRes, notch: RelativeAxis.hwheel,
                    remainder: &hwheelRemainder, to: &pointerEvents)
        try flush(keyboardEvents, to: .keyboard)
        try flush(pointerEvents, to: .pointer)
    }

    /// Releases everything held. Used on disconnect, reload, suspend, signals and keymap
    /// switches. Forgets the holds even if writing fails, since a failed write means the
    /// device is gone and the kernel released its keys with it.
    public func releaseAll() throws {
        defer { held.removeAll(); wheelRemainder = 0; hwheelRemainder = 0 }
        try write(pressed: [])
    }

    /// The key transitions from `old` to `new`, in the order they must be written.
    static func transitions(from old: Set<UInt16>, to new: Set<UInt16>) -> [(UInt16, Bool)] {
        let released = old.subtracting(new).sorted()
        let pressed = new.subtracting(old).sorted()
        let isMod = { (c: UInt16) in modifiers.contains(c) }
        return released.filter { !isMod($0) }.map { ($0, false) }
            + released.filter(isMod).map { ($0, false) }
            + pressed.filter(isMod).map { ($0, true) }
            + pressed.filter { !isMod($0) }.map { ($0, true) }
    }

    private func isSupported(_ code: UInt16) -> Bool {
        DeviceProfile.role(forKey: code) == .pointer ? pointer.supports(key: code) : keyboard.supports(key: code)
    }

    private func appendWheel(_ hiRes: Int32, hiRes hiResCode: UInt16, notch notchCode: UInt16,
                             remainder: inout Int32, to events: inout [RawInputEvent]) {
        guard hiRes != 0 else { return }
        events.append(.rel(hiResCode, hiRes))
        remainder += hiRes
        let notches = remainder / 120        // truncates toward zero: partial notches carry
        if notches != 0 {
            events.append(.rel(notchCode, notches))
            remainder -= notches * 120
        }
    }

    private func flush(_ events: [RawInputEvent], to role: DeviceProfile.Role) throws {
        guard !events.isEmpty else { return }
        // Presses count as held before the write and releases only after it succeeds: a write
        // that fails half-way may have pressed a key, and then a later release must still try.
        for e in events where e.type == EventType.key && e.value != 0 { held.insert(e.code) }
        var batch = events
        batch.append(.synReport)
        try sink.write(batch, to: role)
        for e in events where e.type == EventType.key && e.value == 0 { held.remove(e.code) }
    }
}
