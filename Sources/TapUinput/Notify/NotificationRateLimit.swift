/// How often desktop notifications may be shown: each key (kind + device) at most once per
/// ``perKeyMilliseconds``, and at most ``globalCap`` notifications of any key within any
/// ``globalWindowMilliseconds``. Over the per-key limit the answer is ``Decision/later(_:)``:
/// the caller keeps the newest notification of that key and shows it then, so the last state
/// (a TAP that dropped and reconnected ten times in a minute is connected) is always shown
/// and never more than one bubble per key per interval. Over the global cap it is
/// ``Decision/drop``: a flood is cut, not queued.
///
/// Pure and time-explicit (milliseconds on any monotonic clock) so tests drive it without
/// sleeping. Memory is bounded: one instant per key ever seen (kinds x devices, a handful)
/// and at most ``globalCap`` instants for the window.
public struct NotificationRateLimit: Sendable {
    public var perKeyMilliseconds: Int64
    public var globalCap: Int
    public var globalWindowMilliseconds: Int64
    private var lastShown: [String: Int64] = [:]
    private var recent: [Int64] = []

    /// Defaults: one per kind and device every 30 s, at most 6 a minute overall.
    public init(perKeyMilliseconds: Int64 = 30_000, globalCap: Int = 6, globalWindowMilliseconds: Int64 = 60_000) {
        self.perKeyMilliseconds = perKeyMilliseconds
        self.globalCap = max(1, globalCap)
        self.globalWindowMilliseconds = globalWindowMilliseconds
    }

    public enum Decision: Equatable, Sendable {
        /// Show it now (it has been counted).
        case now
        /// The key was shown less than ``perKeyMilliseconds`` ago: ask again at this instant.
        case later(Int64)
        /// The global cap is reached: forget it.
        case drop
    }

    /// Whether a notification for `key` may be shown at `now`; when it may, it is counted.
    public mutating func admit(_ key: String, now: Int64) -> Decision {
        if let last = lastShown[key], now - last < perKeyMilliseconds { return .later(last + perKeyMilliseconds) }
        recent.removeAll { now - $0 >= globalWindowMilliseconds }
        guard recent.count < globalCap else { return .drop }
        recent.append(now)
        lastShown[key] = now
        return .now
    }
}
