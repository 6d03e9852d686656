import CLinux
import Glibc

/// The daemon's one loop: epoll over every file descriptor, one timerfd for all timers,
/// one signalfd for signals.
///
/// Everything runs on the thread that calls ``run()`` (or ``runOnce(timeout:)``); handlers
/// are plain closures, never `@Sendable`, and must not block. The loop is not thread-safe
/// and is not `Sendable` on purpose: create it, register with it and run it on one thread.
///
/// ```swift
/// let loop = try EventLoop()
/// let w = loop.watch(fd: sock, events: .readable) { _ in drain(sock) }
/// loop.schedule(afterMilliseconds: 10_000) { refreshMode() }
/// loop.run()
/// ```
///
/// Several watches may share one fd (libdbus adds separate read and write watches); the
/// epoll registration then carries the union of their enabled interests.
public final class EventLoop {
    /// Readiness bits reported to a watch handler.
    public struct Events: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: CLINUX_EPOLLIN)
        public static let writable = Events(rawValue: CLINUX_EPOLLOUT)
        public static let error = Events(rawValue: CLINUX_EPOLLERR)
        public static let hangup = Events(rawValue: CLINUX_EPOLLHUP)
    }

    /// A registered interest in one fd. Keep it to change or remove the registration.
    public final class Watch {
        public let fd: Int32
        public internal(set) var events: Events
        public internal(set) var isEnabled: Bool = true
        let handler: (Events) -> Void
        init(fd: Int32, events: Events, handler: @escaping (Events) -> Void) {
            self.fd = fd; self.events = events; self.handler = handler
        }
    }

    /// A one-shot timer. Cancel it with ``EventLoop/cancel(_:)-(Timer)``.
    public final class Timer {
        public let deadline: MonotonicInstant
        let handler: () -> Void
        fileprivate(set) var isCancelled = false
        let sequence: UInt64
        init(deadline: MonotonicInstant, sequence: UInt64, handler: @escaping () -> Void) {
            self.deadline = deadline; self.sequence = sequence; self.handler = handler
        }
    }

    /// An error from a system call, with the call's name and `errno`.
    public struct SystemError: Error, CustomStringConvertible {
        public let call: String
        public let errno: Int32
        public var description: String { "\(call): \(String(cString: strerror(errno)))" }
    }

    private let epollFD: Int32
    private let timerFD: Int32
    private var signalFD: Int32 = -1
    private var watchesByFD: [Int32: [Watch]] = [:]
    private var registered: [Int32: UInt32] = [:]
    private var timers: [Timer] = []          // kept sorted by (deadline, sequence)
    private var nextSequence: UInt64 = 0
    private var armedDeadline: MonotonicInstant?
    private var posted: [() -> Void] = []
    private var signalHandlers: [Int32: (Int32) -> Void] = [:]
    private var stopped = false
    /// Reused by every wait: the hot path allocates nothing per wake-up.
    private var readyEvents = [epoll_event](repeating: epoll_event(), count: 32)

    /// Counts every return from `epoll_wait` (a wake-up); the benchmark reads it.
    public private(set) var wakeups: UInt64 = 0

    public init() throws {
        epollFD = epoll_create1(CLINUX_EPOLL_CLOEXEC)
        guard epollFD >= 0 else { throw SystemError(call: "epoll_create1", errno: Glibc.errno) }
        timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard timerFD >= 0 else { throw SystemError(call: "timerfd_create", errno: Glibc.errno) }
        var ev = epoll_event(events: CLINUX_EPOLLIN, data: epoll_data_t(fd: timerFD))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, timerFD, &ev)
    }

    deinit {
        close(epollFD); close(timerFD)
        if signalFD >= 0 { close(signalFD) }
    }

    // MARK: File descriptors

    /// Calls `handler` whenever `fd` is ready for any of `events` (level-triggered: drain
    /// the fd in the handler). Errors and hang-ups are always reported.
    @discardableResult
    public func watch(fd: Int32, events: Events, handler: @escaping (Events) -> Void) -> Watch {
        let w = Watch(fd: fd, events: events, handler: handler)
        watchesByFD[fd, default: []].append(w)
        sync(fd: fd)
        return w
    }

    /// Changes what `watch` waits for, or pauses it (`enabled: false`).
    public func update(_ watch: Watch, events: Events? = nil, enabled: Bool? = nil) {
        if let events { watch.events = events }
        if let enabled { watch.isEnabled = enabled }
        sync(fd: watch.fd)
    }

    /// Removes `watch`. Safe to call from inside its own handler. Does not close the fd.
    public func remove(_ watch: Watch) {
        watch.isEnabled = false
        watchesByFD[watch.fd]?.removeAll { $0 === watch }
        sync(fd: watch.fd)
    }

    private func sync(fd: Int32) {
        let list = watchesByFD[fd] ?? []
        if list.isEmpty { watchesByFD[fd] = nil }
        let wanted = list.filter(\.isEnabled).reduce(UInt32(0)) { $0 | $1.events.rawValue }
        let current = registered[fd]
        var ev = epoll_event(events: wanted, data: epoll_data_t(fd: fd))
        // No enabled interest: take the fd out of epoll entirely. Registered with an empty mask
        // it would still report hang-ups and errors, which no handler takes, in a busy loop.
        if list.isEmpty || wanted == 0 {
            if current != nil { epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &ev); registered[fd] = nil }
        } else if current == nil {
            if epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &ev) == 0 { registered[fd] = wanted }
        } else if current != wanted {
            epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &ev)
            registered[fd] = wanted
        }
    }

    // MARK: Timers

    /// Runs `handler` once at `deadline` (or as soon as possible after it).
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Timer {
        let t = Timer(deadline: deadline, sequence: nextSequence, handler: handler)
        nextSequence += 1
        let i = timers.firstIndex { ($0.deadline, $0.sequence) > (deadline, t.sequence) } ?? timers.endIndex
        timers.insert(t, at: i)
        armTimer()
        return t
    }

    /// Runs `handler` once, `milliseconds` from now.
    @discardableResult
    public func schedule(afterMilliseconds milliseconds: Int, _ handler: @escaping () -> Void) -> Timer {
        schedule(at: .now().adding(milliseconds: milliseconds), handler)
    }

    /// Cancels `timer`; a cancelled or fired timer is ignored.
    public func cancel(_ timer: Timer) {
        timer.isCancelled = true
        timers.removeAll { $0 === timer }
        armTimer()
    }

    /// Arms the single timerfd for the earliest deadline, or disarms it.
    private func armTimer() {
        let earliest = timers.first?.deadline
        guard earliest != armedDeadline else { return }
        armedDeadline = earliest
        var spec = itimerspec()
        if let d = earliest {
            let ns = max(d.nanoseconds, 1)
            spec.it_value = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        }
        timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func fireDueTimers() {
        var buf: UInt64 = 0
        _ = read(timerFD, &buf, 8)
        armedDeadline = nil
        let now = MonotonicInstant.now()
        while let t = timers.first, t.deadline <= now {
            timers.removeFirst()
            if !t.isCancelled { t.handler() }
        }
        armTimer()
    }

    // MARK: Signals and deferred work

    /// Delivers `signals` through the loop instead of asynchronously. Blocks them for the
    /// calling thread, so call it before starting any other thread.
    public func handleSignals(_ signals: [Int32], handler: @escaping (Int32) -> Void) throws {
        for s in signals { signalHandlers[s] = handler }
        var set = sigset_t()
        let all = Array(signalHandlers.keys)
        _ = all.withUnsafeBufferPointer { clinux_block_signals($0.baseAddress, Int32($0.count), &set) }
        let fd = signalfd(signalFD, &set, CLINUX_SFD_FLAGS)
        guard fd >= 0 else { throw SystemError(call: "signalfd", errno: Glibc.errno) }
        if signalFD < 0 {
            signalFD = fd
            watch(fd: fd, events: .readable) { [unowned self] _ in self.readSignals() }
        }
    }

    private func readSignals() {
        var info = signalfd_siginfo()
        while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            let signo = Int32(info.ssi_signo)
            signalHandlers[signo]?(signo)
        }
    }

    /// Runs `work` on the loop after the current handler returns, before waiting again.
    public func post(_ work: @escaping () -> Void) { posted.append(work) }

    // MARK: Running

    /// Makes ``run()`` return after the current iteration.
    public func stop() { stopped = true }

    /// Waits for and dispatches events until ``stop()`` is called.
    public func run() {
        stopped = false
        while !stopped { runOnce(timeoutMilliseconds: -1) }
    }

    /// Runs the loop until `condition` holds or `timeoutMilliseconds` pass; returns whether
    /// the condition held. For tests and command-line one-shots.
    @discardableResult
    public func run(until condition: () -> Bool, timeoutMilliseconds: Int) -> Bool {
        let end = MonotonicInstant.now().adding(milliseconds: timeoutMilliseconds)
        stopped = false
        while !condition() {
            let now = MonotonicInstant.now()
            if now >= end || stopped { return condition() }
            let left = Int32(clamping: (end.nanoseconds(since: now) + 999_999) / 1_000_000)
            runOnce(timeoutMilliseconds: left)
        }
        return true
    }

    /// One `epoll_wait` (at most `timeoutMilliseconds`, -1 = forever) and its dispatch.
    /// Work posted before the call runs first, and then the wait does not block, so a caller
    /// looping on a condition sees that work's effects at once.
    public func runOnce(timeoutMilliseconds: Int32) {
        let ranWork = runPosted()
        let n = epoll_wait(epollFD, &readyEvents, Int32(readyEvents.count), ranWork || !posted.isEmpty ? 0 : timeoutMilliseconds)
        wakeups &+= 1
        guard n > 0 else { runPosted(); return }
        for i in 0..<Int(n) {
            let e = readyEvents[i]
            let fd = e.data.fd
            if fd == timerFD { fireDueTimers(); continue }
            let ready = Events(rawValue: e.events)
            for w in watchesByFD[fd] ?? [] where w.isEnabled {
                let relevant = ready.intersection(w.events.union([.error, .hangup]))
                if !relevant.isEmpty { w.handler(relevant) }
            }
        }
        runPosted()
    }

    @discardableResult
    private func runPosted() -> Bool {
        let any = !posted.isEmpty
        while !posted.isEmpty {
            let work = posted
            posted.removeAll()
            for w in work { w() }
        }
        return any
    }
}
