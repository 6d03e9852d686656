import EventLoop

/// Focus pushed in from outside the focus module: the daemon's D-Bus method
/// `org.tapuinput.Daemon1.SetFocus(s app_id, s title)`, called by the GNOME Shell extension
/// and the KWin script (`contrib/`), or a test.
///
/// It has no fd of its own: the daemon's D-Bus handler calls ``push(appID:title:)`` on the
/// loop's thread. Pushes get the same treatment as every other source's events (repeats
/// dropped, a passing "nothing focused" held back), so the extension and script can stay
/// simple.
///
/// ```swift
/// let pushed = PushedFocusSource()
/// try pushed.start(on: loop) { keymaps.focusChanged($0) }
/// // in the SetFocus handler:
/// pushed.push(appID: appID, title: title)
/// ```
public final class PushedFocusSource: FocusSource {
    public let name: String
    public var current: FocusInfo? { reporter.last }
    private let reporter: FocusReporter
    private var started = false

    /// - Parameters:
    ///   - name: reported as ``FocusInfo/source``; `"dbus"` by default.
    ///   - noneGraceMilliseconds: how long "nothing focused" must last to be reported.
    public init(name: String = "dbus", noneGraceMilliseconds: Int = 150) {
        self.name = name
        self.reporter = FocusReporter(noneGraceMilliseconds: noneGraceMilliseconds)
    }

    deinit { stop() }

    /// Never throws: there is no peer to reach.
    public func start(on loop: EventLoop, onChange: @escaping (FocusInfo) -> Void) throws {
        reporter.attach(to: loop, onChange: onChange)
        started = true
    }

    public func stop() {
        reporter.detach()
        started = false
    }

    /// Takes one focus report (on the loop's thread). Ignored while stopped.
    public func push(appID: String, title: String) {
        guard started else { return }
        reporter.report(FocusInfo(appID: appID, title: title, source: name))
    }
}
