import Glibc
import Spawn
import Synchronization

/// A child process (``Spawn``) with its stdout on a pipe (Foundation's
/// `Process.waitUntilExit` hangs under the Swift Testing executor on Linux).
public final class Subprocess {
    public let pid: pid_t
    /// Read end of the child's stdout.
    public let stdoutFD: Int32
    private var reaped = false

    public init(_ argv: [String], environment: [String: String] = [:], silenceStderr: Bool = false) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe failed") }
        var env = ProcessEnvironment.current
        for (k, v) in environment { env[k] = v }
        var options = Spawn.Options(stdout: .descriptor(fds[1]), stderr: silenceStderr ? .null : .inherit, environment: env)
        options.close = [fds[0]]
        let child: pid_t
        do {
            child = try Spawn.start(argv, options)
        } catch {
            close(fds[0]); close(fds[1])
            throw TestFailure("\(error)")
        }
        close(fds[1])
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
