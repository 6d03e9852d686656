/// Virtual time in nanoseconds. The daemon passes `CLOCK_MONOTONIC`; tests and the simulator pass
/// whatever they like. The engine only compares and adds these values; it never reads a clock.
public struct EngineTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = EngineTime(nanoseconds: 0)
    public static func milliseconds(_ ms: UInt64) -> EngineTime { EngineTime(nanoseconds: ms * 1_000_000) }

    /// This time plus `ns` nanoseconds, saturating instead of trapping at the top of the range.
    public func adding(nanoseconds ns: UInt64) -> EngineTime {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(ns)
        return EngineTime(nanoseconds: overflow ? .max : sum)
    }

    public static func < (lhs: EngineTime, rhs: EngineTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public var description: String { "\(nanoseconds / 1_000_000)ms" }
}
