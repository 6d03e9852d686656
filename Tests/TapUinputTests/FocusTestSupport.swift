import CLinux
import EventLoop
import Glibc
import Spawn
import TestKit
import Testing
@testable import TapUinput

/// A child process for focus tests (Xvfb, openbox, sway, foot, swaymsg), in its own process
/// group so ``terminate()`` also ends whatever it started (Xwayland, a terminal's shell).
final class TestProcess {
    let pid: pid_t
    let argv: [String]
    private(set) var exited = false

    /// Starts `argv` with exactly `environment`; stdout and stderr go to `logPath`.
    /// `passFD` is dup'ed to fd 3 in the child (Xvfb's `-displayfd 3`).
    init(_ argv: [String], environment: [String: String], logPath: String = "/dev/null",
         passFD: Int32? = nil) throws {
        self.argv = argv
        var options = Spawn.Options(stdin: .null, stdout: .appending(logPath), stderr: .appending(logPath),
                                    environment: environment)
        if let passFD { options.extra = [3: passFD] }
        options.newProcessGroup = true
        do {
            pid = try Spawn.start(argv, options)
        } catch {
            throw TestFailure("\(error)")
        }
    }

    /// Whether the process has exited (reaps it if so).
    var isRunning: Bool {
        if exited { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// Waits for the process to exit by itself; returns its exit status (or -1).
    @discardableResult
    func wait(timeoutMilliseconds: Int = 5000) -> Int32 {
        var status: Int32 = 0
        let done = waitUntil(timeoutMilliseconds: timeoutMilliseconds) {
            waitpid(self.pid, &status, WNOHANG) == self.pid
        }
        if done { exited = true; return (status >> 8) & 0xff }
        terminate()
        return -1
    }

    /// SIGTERM to the whole group, SIGKILL after a second, and reaps the child. Idempotent.
    func terminate() {
        guard !exited else { return }
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        if !waitUntil(timeoutMilliseconds: 1000, { waitpid(self.pid, &status, WNOHANG) == self.pid }) {
            kill(-pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        kill(-pid, SIGKILL)   // stragglers in the group (a terminal's shell, Xwayland)
        exited = true
    }

    deinit { terminate() }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` every 10 ms for at most `timeoutMilliseconds`: only for waiting on
/// external processes to come up, never for the code under test (that runs on the loop).
@discardableResult
func waitUntil(timeoutMilliseconds: Int, _ condition: () -> Bool) -> Bool {
    let end = MonotonicInstant.now().adding(milliseconds: timeoutMilliseconds)
    while !condition() {
        if MonotonicInstant.now() >= end { return condition() }
        poll(nil, 0, 10)
    }
    return true
}

/// A fresh private directory under /tmp, removed by ``remove()``.
func makeTemporaryDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    guard let p = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
    return String(cString: p)
}

func removeTree(_ path: String) {
    guard path.hasPrefix("/tmp/") else { return }
    _ = try? TestProcess(["rm", "-rf", path], environment: ["PATH": "/usr/bin:/bin"]).wait()
}

func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "w") else { throw TestFailure("cannot write \(path)") }
    fputs(text, f)
    fclose(f)
}

func readFile(_ path: String) -> String { readTextFile(path) }

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// Whether a Unix stream socket at `path` accepts connections now (its file appears at
/// `bind`, before the server calls `listen`).
func socketAccepts(_ path: String) -> Bool {
    let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard s >= 0 else { return false }
    defer { close(s) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return false }
    withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes); $0[bytes.count] = 0 }
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    } == 0
}

/// Whether `program` is on PATH (tests fail with a clear message when a peer is missing:
/// `scripts/deps test` installs them).
func requireProgram(_ program: String) throws {
    for dir in ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin"] where access("\(dir)/\(program)", X_OK) == 0 {
        return
    }
    throw TestFailure("\(program) not installed; run scripts/deps test")
}

/// Collects focus reports on the loop and waits for them.
final class FocusRecorder {
    var infos: [FocusInfo] = []
    var callback: (FocusInfo) -> Void { { [unowned self] in self.infos.append($0) } }

    /// Runs `loop` until `count` reports have arrived (or the timeout passes).
    @discardableResult
    func wait(for count: Int, on loop: EventLoop, timeoutMilliseconds: Int = 10_000) -> Bool {
        loop.run(until: { self.infos.count >= count }, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Pairs of (appID, title), the part tests assert on.
    var apps: [String] { infos.map(\.appID) }
}

let testPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
