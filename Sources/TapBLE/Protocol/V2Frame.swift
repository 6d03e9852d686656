/// v2 air gestures (`UnifiedAirGestures`, §2.6); numerically overlap v1 hand states, so a
/// separate type.
public struct UnifiedAirGesture: Sendable, Hashable, RawRepresentable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let none = UnifiedAirGesture(rawValue: 100)
    public static let left = UnifiedAirGesture(rawValue: 101)
    public static let right = UnifiedAirGesture(rawValue: 102)
    public static let up = UnifiedAirGesture(rawValue: 103)
    public static let down = UnifiedAirGesture(rawValue: 104)
    public static let pinchIndex = UnifiedAirGesture(rawValue: 105)
    public static let pinchMiddle = UnifiedAirGesture(rawValue: 106)
    public static let pinchRing = UnifiedAirGesture(rawValue: 107)
    public static let pinchPinky = UnifiedAirGesture(rawValue: 108)
    public static let fist = UnifiedAirGesture(rawValue: 109)
    public static let fistHold = UnifiedAirGesture(rawValue: 114)
}

/// Decoding of v2 frames from `c3ff000e`: `[cmd][sub1][sub2][sub3][payload…]` (§2.6).
public enum V2Frame {
    /// Decodes one frame into the input it carries; nil if malformed or unknown.
    public static func decode(_ b: UnsafeRawBufferPointer, sensitivity: RawSensitivity) -> TapInput? {
        guard b.count >= 4 else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: b[4...])
        switch (b[0], b[1]) {
        case (0x00, 0x00): return MousePacket.decode(payload).map { .mouse($0) }
        case (0x00, 0x01): return RawSensorRecord.decode(payload, sensitivity: sensitivity).map { .raw($0) }
        case (0x01, 0x02):
            guard payload.count >= 1, payload[0] <= 31 else { return nil }
            return .tap(TapPacket(fingers: payload[0]))
        case (0x01, 0x03):
            guard payload.count >= 1 else { return nil }
            return .unifiedAirGesture(UnifiedAirGesture(rawValue: payload[0]))
        case (0x02, _):
            guard payload.count >= 1 else { return nil }
            return .standby(payload[0] == 1)
        case (0x03, let sub):
            return .configAnswer(item: sub, payload: Array(payload))
        default:
            return nil
        }
    }
}
