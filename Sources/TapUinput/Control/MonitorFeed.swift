import DBus
import EventLoop

/// `tap-uinput monitor --json` on a ``ControlClient``: each control signal is followed by an
/// asynchronous `Status()` call, and the line (``MonitorJSON/line(_:status:)``) is written
/// when the answer arrives, so it carries the state right after the event (locks change with
/// taps and have no signal of their own). Replies come back in call order, so lines keep the
/// order of the events. Battery levels have no signal either: `Status()` is polled every
/// ``batteryPollMilliseconds`` and a `battery` line written when a level changed.
///
/// Never blocks: every call has a pending reply. A reply that fails (the daemon went away
/// meanwhile) writes the line without state.
public final class MonitorFeed {
    private let client: ControlClient
    private let output: (String) -> Void
    public let batteryPollMilliseconds: Int
    private var subscriptions: [DBusConnection.Subscription] = []
    private var batteries: [String: Int] = [:]
    private var running = false
    private var poll: EventLoop.Timer?

    /// - Parameter output: called with each line (no newline), on the client's loop.
    public init(client: ControlClient, batteryPollMilliseconds: Int = 30_000, output: @escaping (String) -> Void) {
        self.client = client
        self.batteryPollMilliseconds = batteryPollMilliseconds
        self.output = output
    }

    deinit { if let poll { client.loop.cancel(poll) } }

    public func start() {
        subscriptions = client.watch(daemon: { [weak self] running in
            guard let self else { return }
            self.running = running
            if running { self.emit(.status) } else { self.output(MonitorJSON.line(.stopped, status: nil)) }
        }) { [weak self] event in
            self?.emit(.control(event))
        }
        schedulePoll()
    }

    public func stop() {
        client.stopWatching(subscriptions)
        subscriptions = []
        if let poll { client.loop.cancel(poll) }
        poll = nil
    }

    private func emit(_ event: MonitorJSON.Event) {
        fetchStatus { [weak self] status in
            guard let self else { return }
            if let status { self.batteries = Self.levels(status) }
            self.output(MonitorJSON.line(event, status: status))
        }
    }

    private func schedulePoll() {
        poll = client.loop.schedule(afterMilliseconds: batteryPollMilliseconds) { [weak self] in
            guard let self else { return }
            self.schedulePoll()
            guard self.running else { return }
            self.fetchStatus { [weak self] status in
                guard let self, let status else { return }
                let levels = Self.levels(status)
                guard levels != self.batteries else { return }
                self.batteries = levels
                self.output(MonitorJSON.line(.battery, status: status))
            }
        }
    }

    private func fetchStatus(_ done: @escaping (ControlStatus?) -> Void) {
        let message = DBusMessage.methodCall(destination: ControlInterface.busName, path: ControlInterface.objectPath,
                                             interface: ControlInterface.interface, method: ControlInterface.statusMethod)
        client.connection.call(message, timeoutMilliseconds: client.timeoutMilliseconds) { reply in
            if case .success(let args) = reply, let first = args.first { done(ControlStatus(dbus: first)) } else { done(nil) }
        }
    }

    private static func levels(_ status: ControlStatus) -> [String: Int] {
        var out: [String: Int] = [:]
        for d in status.devices { if let b = d.battery { out[d.id] = b } }
        return out
    }
}
