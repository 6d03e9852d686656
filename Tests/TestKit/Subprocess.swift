import Glibc
import Synchronization

/// A child process started with posix_spawn, with its stdout on a pipe (Foundation's
/// `Process.waitUntilExit` hangs under the Swift Testing executor on Linux).
public final class Subprocess {
    public let pid: pid_t
    /// Read end of the child's stdout.
    public let stdoutFD: Int32
    private var reaped = false

    public init(_ argv: [String], environment: [String: String] = [:], silenceStderr: Bool = false) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        if silenceStderr { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var env = ProcessEnvironment.current
        for (k, v) in environment { env[k] = v }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        // The test runner's threads block signals; the child must not inherit that mask.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        defer { posix_spawnattr_destroy(&attr) }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, argv[0], &actions, &attr, cArgs, cEnv)
        posix_spawn_file_actions_destroy(&actions)
        close(fds[1])
        guard rc == 0 else { close(fds[0]); throw TestFailure("cannot start \(argv[0]): \(rc)") }
        pid = child
        LiveChildren.add(child)
        stdoutFD = fds[0]
    }

    /// Reads stdout until a line satisfying `predicate` appears, or EOF / timeout; returns it.
    public func readLine(timeoutMilliseconds: Int32 = 10_000, where predicate: (String) -> Bool = { _ in true }) -> String? {
        var buffer: [UInt8] = []
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                if predicate(line) { return line }
                continue
            }
            var p = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, timeoutMilliseconds) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 1)   // byte-wise: keep what follows the line unread
            let n = read(stdoutFD, &chunk, 1)
            if n <= 0 { return nil }
            buffer.append(chunk[0])
        }
    }

    /// Sends `signal` and reaps the child.
    public func terminate(_ signal: Int32 = SIGTERM) {
        guard !reaped else { return }
        LiveChildren.remove(pid)
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        reaped = true
        close(stdoutFD)
    }

    deinit { terminate() }
}

/// Every child still running, killed when the test process exits.
///
/// A test that leaks its ``Subprocess`` (a reference cycle, an early return) would otherwise
/// leave a dbus-daemon or fake bluetoothd running after the test run, each holding an inotify
/// instance and sockets; enough of them exhaust the machine's limits for later runs.
enum LiveChildren {
    private static let pids = Mutex<Set<pid_t>>([])
    private static let installed = Mutex(false)

    static func add(_ pid: pid_t) {
        pids.withLock { _ = $0.insert(pid) }
        let first = installed.withLock { done -> Bool in defer { done = true }; return !done }
        if first { atexit { LiveChildren.killAll() } }
    }

    static func remove(_ pid: pid_t) { pids.withLock { _ = $0.remove(pid) } }

    static func killAll() {
        for pid in pids.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}

public enum ProcessEnvironment {
    public static var current: [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}
