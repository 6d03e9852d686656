import DBus
import EventLoop
import Glibc
import TapBLE

/// A client of the daemon's control interface (``ControlService``), for the `status`,
/// `reload`, `focus` and `monitor` commands and for tests.
///
/// Requests are sent asynchronously and waited for by running the ``EventLoop`` until the
/// answer arrives, so a client and a service may share one loop (tests), and the loop keeps
/// delivering signals meanwhile. Do not call a waiting method from inside a loop handler.
public final class ControlClient {
    public let connection: DBusConnection
    public let loop: EventLoop
    /// How long a request may take before ``ControlClientError/noReply`` (the daemon is busy or hung).
    public var timeoutMilliseconds = 10_000

    /// Connects to `bus` (the session bus by default).
    /// - Throws: ``ControlClientError/noBus(_:)`` when the bus cannot be reached.
    public init(bus: DBusConnection.Bus = .session, loop: EventLoop) throws(ControlClientError) {
        self.loop = loop
        do {
            connection = try DBusConnection(bus: bus, loop: loop)
        } catch {
            throw .noBus(error.description)
        }
    }

    /// Connects to `bus` with a loop of its own (command-line tools).
    public convenience init(bus: DBusConnection.Bus = .session) throws(ControlClientError) {
        let loop: EventLoop
        do { loop = try EventLoop() } catch { throw .noBus("cannot create an event loop: \(error)") }
        try self.init(bus: bus, loop: loop)
    }

    /// Runs the loop until SIGINT or SIGTERM (Ctrl-C ends `tap-uinput monitor` cleanly).
    public func runUntilInterrupted() throws {
        try loop.handleSignals([SIGINT, SIGTERM]) { [loop] _ in loop.stop() }
        loop.run()
    }

    /// Whether some process owns ``ControlInterface/busName`` now.
    public func isDaemonRunning() -> Bool {
        let reply = wait(.nameHasOwner(ControlInterface.busName))
        if case .success(let args) = reply { return args.first?.bool ?? false }
        return false
    }

    /// `Status()`.
    public func status() throws(ControlClientError) -> ControlStatus {
        let args = try request(ControlInterface.statusMethod)
        guard let first = args.first, let status = ControlStatus(dbus: first) else {
            throw .failed(name: "org.tapuinput.Error.Failed", message: "the daemon's status reply is not a dictionary")
        }
        return status
    }

    /// `Reload()`. A broken keymap throws ``ControlClientError/failed(name:message:)`` whose
    /// message is the diagnostics text.
    public func reload() throws(ControlClientError) { _ = try request(ControlInterface.reloadMethod) }

    /// `SetKeymap(path)`; `""` returns to automatic selection.
    public func setKeymap(path: String) throws(ControlClientError) {
        _ = try request(ControlInterface.setKeymapMethod, [.string(path)])
    }

    /// `SetFocus(app_id, title)`.
    public func setFocus(appID: String, title: String) throws(ControlClientError) {
        _ = try request(ControlInterface.setFocusMethod, [.string(appID), .string(title)])
    }

    /// `SetLayout(origin, layout)`; `layout` "" withdraws the pushed layout.
    public func setLayout(origin: String, layout: String) throws(ControlClientError) {
        _ = try request(ControlInterface.setLayoutMethod, [.string(origin), .string(layout)])
    }

    /// `Vibrate(device, durations)`; `device` "" = every connected device.
    public func vibrate(device: String, durationsMs: [Int]) throws(ControlClientError) {
        _ = try request(ControlInterface.vibrateMethod, Self.vibrateArguments(device: device, durationsMs: durationsMs))
    }

    /// `Vibrate`'s arguments, for ``send(_:_:reply:)`` too (the tray's "find TAP").
    public static func vibrateArguments(device: String, durationsMs: [Int]) -> [DBusValue] {
        [.string(device), .array(elementSignature: "u", durationsMs.map { .uint32(UInt32(clamping: $0)) })]
    }

    /// `SetMode(device, mode)`.
    public func setMode(device: String, mode: String) throws(ControlClientError) {
        _ = try request(ControlInterface.setModeMethod, [.string(device), .string(mode)])
    }

    /// Delivers every control signal as a ``ControlEvent`` on the loop, `Tap` included, and
    /// `daemon(true/false)` whenever the daemon appears or leaves the bus (once at first).
    /// Each time the daemon appears, `WatchTaps()` is called on it, so a restarted daemon
    /// keeps sending taps. Returns the subscriptions, for ``stopWatching(_:)``.
    @discardableResult
    public func watch(daemon: @escaping (Bool) -> Void = { _ in },
                      onEvent: @escaping (ControlEvent) -> Void) -> [DBusConnection.Subscription] {
        // The rule names the daemon by its well-known name; the connection matches signals
        // against the owner it tracks, so another peer cannot inject events.
        let rule = DBusMatchRule(sender: ControlInterface.busName, path: ControlInterface.objectPath,
                                 interface: ControlInterface.interface)
        let signals = connection.subscribe(rule) { message in
            if let event = ControlEvent(signal: message) { onEvent(event) }
        }
        let owner = connection.watchNameOwner(ControlInterface.busName) { [weak self] owner in
            if owner != nil, let self {
                self.connection.call(self.message(ControlInterface.watchTapsMethod)) { _ in }
            }
            daemon(owner != nil)
        }
        return [owner, signals]
    }

    /// Ends a ``watch(daemon:onEvent:)``.
    public func stopWatching(_ subscriptions: [DBusConnection.Subscription]) {
        for s in subscriptions { connection.unsubscribe(s) }
        connection.call(message(ControlInterface.unwatchTapsMethod)) { _ in }
    }

    /// Sends `method` without waiting: `reply` runs later on the loop, with the answer or an
    /// error (``ControlClientError/noReply`` after ``timeoutMilliseconds`` at the latest). For
    /// clients that live on the loop (the tray), where waiting in place would stall it.
    public func send(_ method: String, _ arguments: [DBusValue] = [],
                     reply: @escaping (Result<[DBusValue], ControlClientError>) -> Void) {
        connection.call(message(method, arguments), timeoutMilliseconds: timeoutMilliseconds) { r in
            reply(r.mapError { ControlClientError($0) })
        }
    }

    // MARK: Calls

    private func message(_ method: String, _ arguments: [DBusValue] = []) -> DBusMessage {
        .methodCall(destination: ControlInterface.busName, path: ControlInterface.objectPath,
                    interface: ControlInterface.interface, method: method, arguments: arguments)
    }

    private func request(_ method: String, _ arguments: [DBusValue] = []) throws(ControlClientError) -> [DBusValue] {
        switch wait(message(method, arguments)) {
        case .success(let args): return args
        case .failure(let e): throw ControlClientError(e)
        }
    }

    /// Sends `message` and runs the loop until its reply (or the timeout).
    private func wait(_ message: DBusMessage) -> DBusReply {
        var result: DBusReply?
        connection.call(message, timeoutMilliseconds: timeoutMilliseconds) { result = $0 }
        loop.run(until: { result != nil }, timeoutMilliseconds: timeoutMilliseconds + 1000)
        return result ?? .failure(DBusError(name: "org.freedesktop.DBus.Error.NoReply", message: "no reply"))
    }
}

/// Why a control request failed, worded for the command line.
public enum ControlClientError: Error, Equatable, CustomStringConvertible {
    /// The session bus cannot be reached (no `DBUS_SESSION_BUS_ADDRESS`, not in a session).
    case noBus(String)
    /// Nobody owns ``ControlInterface/busName``.
    case notRunning
    /// The daemon did not answer in time.
    case noReply
    /// The daemon answered with an error (`org.tapuinput.Error.InvalidKeymap`, ...).
    case failed(name: String, message: String)

    init(_ e: DBusError) {
        switch e.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            self = .notRunning
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            self = .noReply
        case "org.freedesktop.DBus.Error.Disconnected":
            self = .noBus(e.message)
        default:
            self = .failed(name: e.name, message: e.message)
        }
    }

    public var description: String {
        switch self {
        case .noBus(let why):
            return "cannot reach the session bus (\(why)); run this inside your desktop session"
        case .notRunning: return ControlInterface.notRunningMessage
        case .noReply: return "the TapUinput daemon did not answer"
        case .failed(_, let message): return message
        }
    }
}
