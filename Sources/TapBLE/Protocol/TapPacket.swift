/// One notification from the tap-data characteristic (`c3ff0005`, §2.1).
public struct TapPacket: Sendable, Hashable {
    /// The 5-bit finger mask: bit0 thumb, bit1 index, bit2 middle, bit3 ring, bit4 pinky.
    /// Zero means the notification carries only ``keyboardState``.
    public var fingers: UInt8
    /// Bytes 1–2: milliseconds since the previous tap, per third-party readings; no official
    /// SDK parses them. Nil when the packet is shorter than 3 bytes.
    public var interval: UInt16?
    /// Byte 3 (firmware ≥ ~2.4.5), nil when absent.
    public var keyboardState: KeyboardState?

    public init(fingers: UInt8, interval: UInt16? = nil, keyboardState: KeyboardState? = nil) {
        self.fingers = fingers
        self.interval = interval
        self.keyboardState = keyboardState
    }

    /// Decodes a tap-data notification; nil if it is empty or byte 0 is not a 5-bit mask.
    public static func decode(_ b: UnsafeRawBufferPointer) -> TapPacket? {
        guard b.count >= 1, b[0] <= 31 else { return nil }
        var p = TapPacket(fingers: b[0])
        if b.count >= 3 { p.interval = UInt16(b[1]) | UInt16(b[2]) << 8 }
        if b.count >= 4 { p.keyboardState = KeyboardState(byte: b[3]) }
        return p
    }
}

/// Byte 3 of a tap packet: shift and switch layers and the firmware's multi-tap counter.
public struct KeyboardState: Sendable, Hashable {
    public enum Shift: UInt8, Sendable { case off = 0, on = 1, locked = 2 }
    public var shift: Shift
    public var switchOn: Bool
    /// 1, 2 or 3. Raw bits 4–5: 0 single, 1 double, 3 triple; the "illegal" 2 reads as
    /// triple, as in the iOS SDK (`min(raw + 1, 3)`).
    public var repeatCount: Int
    /// The byte as received.
    public var raw: UInt8

    public init(byte: UInt8) {
        raw = byte
        // Shift value 3 is undefined; treat it like the strongest state rather than drop the packet.
        shift = Shift(rawValue: byte & 3) ?? .locked
        switchOn = (byte >> 2) & 3 != 0
        repeatCount = min(Int((byte >> 4) & 3) + 1, 3)
    }
}
