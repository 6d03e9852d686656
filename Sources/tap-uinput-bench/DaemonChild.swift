import EventLoop
import Glibc
import TapUinput

/// `tap-uinput-bench daemon-child --bus ADDRESS --out FILE`: the real daemon, started by the
/// `daemon` benchmark as its own process so its CPU time, memory and wake-ups are its own.
///
/// It is ``TapUinput/Daemon`` exactly as `tap-uinput run` builds it (built-in keymap, default
/// TapManager options: AcquireNotify with StartNotify fallback, 10 s mode refresh), except that
/// it offers no control interface and its events go through a ``StampSink``. Where
/// `/dev/uinput` is writable (the e2e VM) the sink writes each frame to the real uinput
/// devices and stamps it once the write returns; elsewhere it only stamps. On SIGTERM the daemon stops and the stamps are written to FILE.
enum DaemonChild {
    static func run(arguments: [String]) -> Int32 {
        guard let bus = value(of: "--bus", in: arguments), let out = value(of: "--out", in: arguments) else {
            print("usage: tap-uinput-bench daemon-child --bus ADDRESS --out FILE")
            return 2
        }
        LogSetup.bootstrap(defaultLevel: .warning, overrides: [:])
        var options = Daemon.Options()
        options.systemBus = .address(bus)
        options.restoreTextModeOnExit = false
        // No control interface: two daemon children (socket and signal) run at once, and on a
        // machine with a session bus the second would see the first's name and step aside.
        options.sessionBus = nil
        // Never the user's own keymap: the benchmark relies on the built-in one.
        options.configPaths = ConfigPaths(environment: ["XDG_CONFIG_HOME": "/nonexistent/tap-uinput-bench"])
        do {
            let sink = StampSink(capacity: 1 << 20, forwardingTo: access("/dev/uinput", W_OK) == 0 ? try UinputSink() : nil)
            let daemon = try Daemon(options: options, sink: sink)
            _ = try daemon.run()
            return sink.dump(to: out) ? 0 : 1
        } catch {
            print("daemon-child: \(error)")
            return 1
        }
    }

    static func value(of flag: String, in arguments: [String]) -> String? {
        guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count else { return nil }
        return arguments[i + 1]
    }
}

/// An ``TapUinput/EventSink`` that takes the monotonic time of every frame that presses a key
/// or moves the pointer: after `forward` (the real ``TapUinput/UinputSink``) has written it to
/// the kernel, or, without one, at the point where it would be written. Fixed storage, no
/// allocation per frame.
final class StampSink: EventSink {
    struct Stamp { var nanoseconds: UInt64; var code: UInt16; var isKey: Bool }
    private let stamps: UnsafeMutableBufferPointer<Stamp>
    private var count = 0
    private let forward: EventSink?

    init(capacity: Int, forwardingTo forward: EventSink? = nil) {
        // Left uninitialised: only the pages actually written become resident.
        stamps = .allocate(capacity: capacity)
        self.forward = forward
    }

    deinit { stamps.deallocate() }

    func write(_ events: [RawInputEvent], to role: DeviceProfile.Role) throws {
        try forward?.write(events, to: role)
        let now = MonotonicInstant.now().nanoseconds
        for e in events {
            if e.type == EventType.key && e.value == 1 { return stamp(now, code: e.code, isKey: true) }
            if e.type == EventType.rel { return stamp(now, code: 0, isKey: false) }
        }
    }

    func stamp(_ nanoseconds: UInt64, code: UInt16, isKey: Bool) {
        guard count < stamps.count else { return }
        stamps[count] = Stamp(nanoseconds: nanoseconds, code: code, isKey: isKey)
        count += 1
    }

    /// Writes `t_ns kind code` lines (kind `k` = key down, `p` = pointer motion).
    func dump(to path: String) -> Bool {
        guard let f = fopen(path, "w") else { return false }
        for s in stamps[0..<count] { fputs("\(s.nanoseconds) \(s.isKey ? "k" : "p") \(s.code)\n", f) }
        return fclose(f) == 0
    }
}
