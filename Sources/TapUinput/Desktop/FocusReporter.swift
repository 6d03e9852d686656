import EventLoop
import Logging

/// What every focus source does with a focus value it has read: drop repeats, hold back a
/// "nothing focused" for a moment, and call the daemon's callback.
///
/// Why the hold-back: when the focused window closes or the focus moves, compositors and
/// window managers commonly pass through "no focus" first (sway sends `close` before the next
/// `focus`; openbox sets `_NET_ACTIVE_WINDOW` to None in between). Reporting that would flip
/// the keymap to the default and back within milliseconds. So "nothing" is reported only when
/// it lasts `noneGraceMilliseconds`; an application gaining focus is always reported at once
/// and cancels a held-back "nothing".
final class FocusReporter {
    let noneGraceMilliseconds: Int
    private(set) var dedup = FocusDeduplicator()
    private var pendingNone: EventLoop.Timer?
    private weak var loop: EventLoop?
    private var onChange: ((FocusInfo) -> Void)?
    private let log = LogSetup.logger("focus")

    init(noneGraceMilliseconds: Int) {
        self.noneGraceMilliseconds = noneGraceMilliseconds
    }

    /// The last value passed to the callback.
    var last: FocusInfo? { dedup.last }

    /// Starts reporting to `onChange`, forgetting the last value so that the first report
    /// after a (re)start always reaches the new callback.
    func attach(to loop: EventLoop, onChange: @escaping (FocusInfo) -> Void) {
        cancelPendingNone()
        dedup = FocusDeduplicator()
        self.loop = loop
        self.onChange = onChange
    }

    /// Cancels a held-back "nothing" and forgets the callback. The last value stays readable
    /// (``last``); reconnects inside a source keep it, so finding the same focus again after a
    /// reconnect reports nothing new.
    func detach() {
        cancelPendingNone()
        onChange = nil
        loop = nil
    }

    /// Reports `info` (through the hold-back when it is "nothing").
    func report(_ info: FocusInfo) {
        if info.appID.isEmpty && info.title.isEmpty {
            guard pendingNone == nil, info != dedup.last else { return }
            guard noneGraceMilliseconds > 0, let loop else { emit(info); return }
            pendingNone = loop.schedule(afterMilliseconds: noneGraceMilliseconds) { [weak self] in
                self?.pendingNone = nil
                self?.emit(info)
            }
        } else {
            cancelPendingNone()
            emit(info)
        }
    }

    /// Drops a held-back "nothing" (a window is about to be reported).
    func cancelPendingNone() {
        if let pendingNone, let loop { loop.cancel(pendingNone) }
        pendingNone = nil
    }

    private func emit(_ info: FocusInfo) {
        guard dedup.accept(info) else { return }
        log.debug("focus: \(info)")
        onChange?(info)
    }
}
