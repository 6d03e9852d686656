/// A decoded input from a Tap, as delivered in ``TapEvent/input(device:_:)``.
public enum TapInput: Sendable, Hashable {
    case tap(TapPacket)
    case mouse(MousePacket)
    case airGesture(AirGesture)
    case airGestureState(AirGestureState)
    /// A TapXR hand state after the 3-sample majority filter (only changes are reported).
    case handState(HandState)
    case raw([RawSensorRecord])
    /// v2 only.
    case unifiedAirGesture(UnifiedAirGesture)
    /// v2 only: standby changed (or the answer to a standby query).
    case standby(Bool)
    /// v2 only: answer to a GET command (`03 <item> …`).
    case configAnswer(item: UInt8, payload: [UInt8])
}

/// What a notification on the air-gesture characteristic carries before filtering.
public enum AirGestureMessage: Sendable, Hashable {
    case state(AirGestureState)
    case gesture(AirGesture)
    case handState(HandState)

    /// Decodes a `c3ff000a` notification; nil if empty or a truncated state message.
    public static func decode(_ b: UnsafeRawBufferPointer) -> AirGestureMessage? {
        guard b.count >= 1 else { return nil }
        if b[0] == 0x14 {
            guard b.count >= 2 else { return nil }
            return .state(AirGestureState(raw: b[1]))
        }
        if let h = HandState(rawValue: b[0]) { return .handState(h) }
        return .gesture(AirGesture(rawValue: b[0]))
    }
}
