import EventLoop
import KeyboardLayout
import Logging

/// What every desktop connection (X11, sway/i3, Hyprland, wlroots) shares: start, report the
/// focus (through a ``FocusReporter``), lose the peer, reconnect with backoff, stop.
///
/// A desktop subclasses it and writes only what is specific to it: ``connect()`` (open the
/// connection, register its fds on ``loop``), ``disconnect()`` (close it), its protocol, and
/// calls ``report(_:)`` with what it read and ``lost(_:)`` when the peer goes away. Sources that
/// also know the keyboard layout adopt ``LayoutReporting`` on the same connection. Each
/// subclass keeps `deinit { stop() }`: its handlers must not outlive it (a base-class deinit
/// would run after the subclass's properties are gone).
public class DesktopSource: FocusSource {
    public let name: String
    /// How to reconnect after the peer goes away; nil: don't.
    public let retry: FocusRetryPolicy?
    public var current: FocusInfo? { reporter.last }
    /// How long "nothing focused" must last to be reported.
    public var noneGraceMilliseconds: Int { reporter.noneGraceMilliseconds }
    /// Layout reports, for the sources that adopt ``LayoutReporting`` (set before start).
    public var onLayoutChange: ((LayoutReport) -> Void)?
    /// The last layout reported since start; nil before the first.
    public private(set) var currentLayout: LayoutReport?

    /// The loop between ``start(on:onChange:)`` and ``stop()``.
    private(set) var loop: EventLoop?
    let reporter: FocusReporter
    let reconnector: FocusReconnector
    let log = LogSetup.logger("focus")

    init(name: String, retry: FocusRetryPolicy?, noneGraceMilliseconds: Int) {
        self.name = name
        self.retry = retry
        self.reconnector = FocusReconnector(policy: retry)
        self.reporter = FocusReporter(noneGraceMilliseconds: noneGraceMilliseconds)
    }

    public func start(on loop: EventLoop, onChange: @escaping (FocusInfo) -> Void) throws {
        stop()
        self.loop = loop
        reporter.attach(to: loop, onChange: onChange)
        currentLayout = nil
        prepareForStart()
        try connect()
    }

    public func stop() {
        disconnect()
        reconnector.cancel()
        loop = nil
        reporter.detach()
    }

    // MARK: What a desktop writes

    /// Opens the connection and registers its fds on ``loop``; throws when the peer cannot be
    /// reached at all. Called by ``start(on:onChange:)`` and by every reconnect attempt.
    func connect() throws(FocusSourceError) {
        preconditionFailure("\(type(of: self)) must override connect()")
    }

    /// Closes the connection and unregisters its fds. Idempotent.
    func disconnect() {}

    /// Forgets what a previous run learned beyond the focus, before the first connect.
    func prepareForStart() {}

    /// The peer as logs name it (a socket path, a display).
    var peerDescription: String { name }

    // MARK: For the desktop's code

    /// Hands a focus value read from the peer to the reporter (repeats dropped, "nothing" held back).
    func report(_ info: FocusInfo) { reporter.report(info) }

    /// Hands a layout read from the peer to ``onLayoutChange``, once per change; `detail` goes
    /// to the log line (how the peer named it).
    func reportLayout(_ layout: LayoutReport, detail: String = "") {
        guard layout != currentLayout else { return }
        currentLayout = layout
        log.info("\(name): keyboard layout \(layout.summary)\(detail)")
        onLayoutChange?(layout)
    }

    /// The peer went away: logs it, closes the connection and reconnects with backoff.
    func lost(_ reason: String) {
        log.warning("\(name): lost \(peerDescription): \(reason)")
        disconnect()
        scheduleRetry()
    }

    /// Tries ``connect()`` again after the retry policy's next delay.
    func scheduleRetry() {
        guard let loop else { return }
        reconnector.retry(on: loop, name: name) { [unowned self] () throws(FocusSourceError) in try self.connect() }
    }
}
