import ChordMap
import EventLoop

/// The engine driver's time: what time it is, and the one deadline the engine asked for.
///
/// The daemon uses ``LoopClock`` (the loop's monotonic clock and timer); tests use a virtual
/// clock they advance by hand, so the driver's timing (multi-tap windows, one-shot timeouts,
/// keymap switches at idle points) is checked without waiting on real time.
public protocol EngineClock: AnyObject {
    /// The current time.
    func now() -> EngineTime
    /// Arms `fire` for `deadline`, replacing any deadline armed before; nil disarms. `fire`
    /// runs once, on the loop, at or after the deadline.
    func arm(_ deadline: EngineTime?, fire: @escaping () -> Void)
}

/// ``EngineClock`` on the daemon's loop: `CLOCK_MONOTONIC` and one loop timer.
public final class LoopClock: EngineClock {
    private let loop: EventLoop
    private var timer: EventLoop.Timer?

    public init(loop: EventLoop) { self.loop = loop }

    public func now() -> EngineTime { EngineTime(nanoseconds: MonotonicInstant.now().nanoseconds) }

    public func arm(_ deadline: EngineTime?, fire: @escaping () -> Void) {
        if let timer, timer.deadline.nanoseconds == deadline?.nanoseconds { return }
        if let timer { loop.cancel(timer); self.timer = nil }
        guard let deadline else { return }
        timer = loop.schedule(at: MonotonicInstant(nanoseconds: deadline.nanoseconds)) { [weak self] in
            self?.timer = nil
            fire()
        }
    }

    deinit { if let timer { loop.cancel(timer) } }
}
