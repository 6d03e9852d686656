import CLinux

/// A point on the system's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds.
///
/// The engine never reads a clock; the loop does, and hands instants to it. Tests build
/// instants by hand.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The current monotonic time.
    public static func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: clinux_monotonic_ns()) }

    /// This instant moved forward by `ms` milliseconds.
    public func adding(milliseconds ms: Int) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds &+ UInt64(max(0, ms)) &* 1_000_000)
    }

    /// Nanoseconds from `earlier` to `self`, zero if `earlier` is later.
    public func nanoseconds(since earlier: MonotonicInstant) -> UInt64 {
        nanoseconds >= earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0
    }

    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }
    public var description: String { "\(nanoseconds / 1_000_000)ms" }
}
