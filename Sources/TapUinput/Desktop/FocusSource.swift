import EventLoop
import KeyboardLayout

/// A push-based source of focus changes: a compositor or X server connection watched by the
/// daemon's ``EventLoop``.
///
/// Contract for every implementation:
/// - ``start(on:onChange:)`` registers fds on `loop` and returns at once; `onChange` is then
///   called on the loop's thread, once with the current focus as soon as it is known and
///   then for every change. Nothing is queried when a key is pressed: the daemon reads the
///   cached ``current`` value.
/// - Repeats are dropped: the same ``FocusInfo`` twice in a row is one callback.
/// - Losing the peer (socket closed, X server gone) is logged; the source unregisters its fds
///   and retries with backoff on the loop's timer. It never crashes and never blocks the loop.
/// - ``stop()`` unregisters everything and cancels retries; the source may be started again.
public protocol FocusSource: AnyObject {
    /// Short mechanism name, also used as ``FocusInfo/source``: `"x11"`, `"sway"`, `"hyprland"`.
    var name: String { get }
    /// The last focus reported, or nil before the first report.
    var current: FocusInfo? { get }
    /// Starts watching. Throws ``FocusSourceError`` when the peer cannot be reached at all
    /// (no socket, no X server), so the caller can try another source.
    func start(on loop: EventLoop, onChange: @escaping (FocusInfo) -> Void) throws
    /// Stops watching, closes connections and cancels pending retries. Idempotent.
    func stop()
}

/// A focus source whose connection also tells the active keyboard layout (X11 through XKB,
/// sway/i3 through IPC input events): one connection, one lifecycle, two kinds of report.
///
/// Contract: set ``onLayoutChange`` before ``FocusSource/start(on:onChange:)``; it is then called
/// on the loop's thread with the layout as soon as it is known and on every change (repeats
/// dropped), never on the key path. Sources report XKB names; the daemon compiles them.
public protocol LayoutReporting: FocusSource {
    var onLayoutChange: ((LayoutReport) -> Void)? { get set }
    /// The last layout reported, or nil before the first report.
    var currentLayout: LayoutReport? { get }
}

/// Why a focus source could not start.
public struct FocusSourceError: Error, CustomStringConvertible, Equatable {
    public var source: String
    public var message: String
    public init(source: String, message: String) { self.source = source; self.message = message }
    public var description: String { "\(source) focus: \(message)" }
}

/// Drops repeated focus values and remembers the last one; each source owns one.
struct FocusDeduplicator {
    private(set) var last: FocusInfo?

    /// Returns true (and records `info`) when `info` differs from the last value passed.
    mutating func accept(_ info: FocusInfo) -> Bool {
        guard info != last else { return false }
        last = info
        return true
    }
}

/// Reconnect delays: doubling from `initial` up to `maximum` milliseconds, reset on success.
public struct FocusRetryPolicy: Sendable, Equatable {
    public var initialMilliseconds: Int
    public var maximumMilliseconds: Int
    /// The default: 0.5 s, doubling up to 30 s. (Pass `retry: nil` to a source to disable
    /// retrying: a lost peer then stops it for good.)
    public static let standard = FocusRetryPolicy(initialMilliseconds: 500, maximumMilliseconds: 30_000)

    public init(initialMilliseconds: Int, maximumMilliseconds: Int) {
        self.initialMilliseconds = max(1, initialMilliseconds)
        self.maximumMilliseconds = max(self.initialMilliseconds, maximumMilliseconds)
    }

    /// The delay before attempt number `attempt` (0-based).
    func delay(attempt: Int) -> Int {
        var d = initialMilliseconds
        for _ in 0..<min(attempt, 30) where d < maximumMilliseconds { d *= 2 }
        return min(d, maximumMilliseconds)
    }
}
