import EventLoop

/// Reconnects a focus source to its peer with backoff, on the loop: the one retry mechanism
/// the X11, sway/i3, Hyprland and wlroots sources share.
///
/// A source calls ``retry(on:name:_:)`` when it lost its peer (or could not reach it);
/// `connect` is tried after ``FocusRetryPolicy/delay(attempt:)`` and, while it throws, again
/// after a longer delay. The source calls ``succeeded()`` once the peer really answered, so
/// the next loss starts from the shortest delay, and ``cancel()`` when it stops.
final class FocusReconnector {
    let policy: FocusRetryPolicy?
    private var attempt = 0
    private var timer: EventLoop.Timer?
    private var loop: EventLoop?
    private let log = LogSetup.logger("focus")

    init(policy: FocusRetryPolicy?) { self.policy = policy }

    /// The peer answered: back to the shortest delay.
    func succeeded() { attempt = 0 }

    /// Schedules `connect` after the next delay (nothing when the policy is nil: no retries).
    func retry(on loop: EventLoop, name: String, _ connect: @escaping () throws(FocusSourceError) -> Void) {
        guard let policy else { return }
        cancel()
        self.loop = loop
        let delay = policy.delay(attempt: attempt)
        attempt += 1
        timer = loop.schedule(afterMilliseconds: delay) { [unowned self] in
            self.timer = nil
            do throws(FocusSourceError) {
                try connect()
            } catch {
                self.log.debug("\(name): reconnect failed: \(error.message); next try later")
                self.retry(on: loop, name: name, connect)
            }
        }
    }

    /// Drops a scheduled attempt and starts over from the shortest delay.
    func cancel() {
        if let timer, let loop { loop.cancel(timer) }
        timer = nil
        attempt = 0
    }
}
