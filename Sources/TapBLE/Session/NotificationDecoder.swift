/// Which characteristic a notification came from.
enum NotifyKind { case tap, mouse, air, raw, v2 }

/// One device's notifications to ``TapInput``s: the packet decoders plus the per-device state
/// that changes their meaning. Pure: no D-Bus, no clock, no logging (the session logs what
/// ``takeNotice()`` returns), so every rule here has a unit test.
///
/// - In the air-mouse state (a TapXR or Strap reporting it), the two- and four-finger taps the
///   firmware sends for the air gestures are turned into those gestures when
///   ``divertTapsInAirMouseState`` is set.
/// - Hand states go through the vendor's majority-of-three filter; only changes come out.
/// - Raw sensor records are scaled with the sensitivity of the raw mode last written.
/// - A value the protocol notes do not document is delivered as is, and named once.
struct NotificationDecoder {
    var divertTapsInAirMouseState: Bool
    /// The sensitivity of the raw mode last written (raw records are scaled with it).
    var rawSensitivity = RawSensitivity()
    /// Packets that did not decode, since the session started.
    private(set) var malformedPackets = 0
    private var airMouse = false
    private var handFilter = HandStateFilter()
    private var seenUnusual: Set<UInt16> = []
    private var notice: String?

    init(divertTapsInAirMouseState: Bool) {
        self.divertTapsInAirMouseState = divertTapsInAirMouseState
    }

    /// What a notification means.
    enum Decoded: Equatable {
        case input(TapInput)
        /// Understood, nothing to deliver (a repeated hand state).
        case nothing
        /// Did not decode: counted in ``malformedPackets`` and dropped.
        case malformed
    }

    mutating func decode(_ bytes: UnsafeRawBufferPointer, kind: NotifyKind) -> Decoded {
        let input: TapInput?
        switch kind {
        case .tap:
            if let p = TapPacket.decode(bytes) {
                if airMouse, divertTapsInAirMouseState, p.fingers == 2 || p.fingers == 4 {
                    input = .airGesture(AirGesture(rawValue: p.fingers + 10))
                } else {
                    input = .tap(p)
                }
            } else { input = nil }
        case .mouse:
            let p = MousePacket.decode(bytes)
            if let p, p.messageType != 0 { unusual("mouse message type \(p.messageType)", key: 0x100 | UInt16(p.messageType)) }
            input = p.map { .mouse($0) }
        case .air:
            switch AirGestureMessage.decode(bytes) {
            case .state(let s)?:
                airMouse = s.isAirMouse
                input = .airGestureState(s)
            case .gesture(let g)?:
                if g.rawValue > 14 { unusual("air gesture code \(g.rawValue)", key: 0x200 | UInt16(g.rawValue)) }
                input = .airGesture(g)
            case .handState(let h)?:
                guard let changed = handFilter.add(h) else { return .nothing }
                input = .handState(changed)
            case nil: input = nil
            }
        case .raw:
            input = RawSensorRecord.decode(bytes, sensitivity: rawSensitivity).map { .raw($0) }
        case .v2:
            input = V2Frame.decode(bytes, sensitivity: rawSensitivity)
        }
        guard let input else {
            malformedPackets += 1
            return .malformed
        }
        return .input(input)
    }

    /// The undocumented value the last ``decode(_:kind:)`` met for the first time, once.
    mutating func takeNotice() -> String? {
        defer { notice = nil }
        return notice
    }

    /// The link went down: the device starts over in its default state.
    mutating func reset() {
        airMouse = false
        handFilter.reset()
    }

    private mutating func unusual(_ what: String, key: UInt16) {
        if seenUnusual.insert(key).inserted { notice = what }
    }
}
