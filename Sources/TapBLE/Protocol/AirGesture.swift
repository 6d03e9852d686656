/// A gesture code from the air-gesture characteristic (`c3ff000a`, §2.3), v1 protocol.
///
/// Code 10 is read as *pinch* (Python; TapXR "Air Gesture pinch") rather than iOS/Android's
/// `IndexToThumbTouch`, which those SDKs only synthesise from taps. 12 and 14 are what the
/// Python SDK synthesises from taps 2/4 in air-mouse state (see ``TapManager/Options``).
public struct AirGesture: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let none = AirGesture(rawValue: 0)
    public static let general = AirGesture(rawValue: 1)
    public static let upOneFinger = AirGesture(rawValue: 2)
    public static let upTwoFingers = AirGesture(rawValue: 3)
    public static let downOneFinger = AirGesture(rawValue: 4)
    public static let downTwoFingers = AirGesture(rawValue: 5)
    public static let leftOneFinger = AirGesture(rawValue: 6)
    public static let leftTwoFingers = AirGesture(rawValue: 7)
    public static let rightOneFinger = AirGesture(rawValue: 8)
    public static let rightTwoFingers = AirGesture(rawValue: 9)
    public static let pinch = AirGesture(rawValue: 10)
    public static let thumbFinger = AirGesture(rawValue: 12)
    public static let thumbMiddle = AirGesture(rawValue: 14)

    public var description: String { "airGesture(\(rawValue))" }
}

/// The air-gesture / air-mouse state from a `14 <state>` message.
///
/// iOS/Android/Windows read `state == 1` as "in air-gesture state"; Python/web read the byte as
/// a mouse mode (0 standby, 1 air mouse, 2/3 optical). Both readings agree on ``isAirMouse``.
public struct AirGestureState: Sendable, Hashable {
    public var raw: UInt8
    public init(raw: UInt8) { self.raw = raw }
    public var isAirMouse: Bool { raw == 1 }
}

/// TapXR spatial hand state (codes 100–105 on `c3ff000a`, sent several times a second).
public enum HandState: UInt8, Sendable, Hashable {
    case open = 100, thumbIndex = 101, thumbMiddle = 102, thumbRing = 103, thumbPinky = 104, fist = 105
}

/// The vendor's recommended filter for hand states: the most common of the last 3 samples
/// (iOS `MajorityVoting(len: 3)`). Reports a state only when the filtered value changes.
public struct HandStateFilter: Sendable {
    private var samples: [HandState] = []
    public private(set) var current: HandState?

    public init() { samples.reserveCapacity(3) }

    /// Adds a sample; returns the new filtered state if it changed.
    public mutating func add(_ s: HandState) -> HandState? {
        if samples.count == 3 { samples.removeFirst() }
        samples.append(s)
        // A value seen at least twice in the window wins; with three different values (or
        // fewer than two samples) the previous state stands, except for the very first sample.
        var winner: HandState?
        for c in samples where samples.lazy.filter({ $0 == c }).count >= 2 { winner = c; break }
        if winner == nil && current == nil && samples.count == 1 { winner = s }
        guard let w = winner, w != current else { return nil }
        current = w
        return w
    }

    public mutating func reset() { samples.removeAll(keepingCapacity: true); current = nil }
}
