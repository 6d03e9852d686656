import CLinux
import Glibc

/// Starting a program: the one `posix_spawnp` set-up the daemon's commands, the benchmark and the
/// tests share. The child never inherits the caller's blocked signals or ignored dispositions
/// (the daemon blocks signals for its signalfd; test runners block them on their threads).
public enum Spawn {
    /// Where one of the child's descriptors comes from.
    public enum Source: Sendable {
        /// The caller's descriptor of the same number.
        case inherit
        /// `/dev/null` (read-only for fd 0, write-only otherwise).
        case null
        /// A file opened for appending (created 0644).
        case appending(String)
        /// A descriptor of the caller's (`dup2`).
        case descriptor(Int32)
    }

    public struct Options: Sendable {
        public var stdin: Source = .inherit
        public var stdout: Source = .inherit
        public var stderr: Source = .inherit
        /// Further descriptors: child fd number -> the caller's descriptor (`-displayfd 3`).
        public var extra: [Int32: Int32] = [:]
        /// The caller's descriptors to close in the child (the other end of a pipe).
        public var close: [Int32] = []
        /// The child's whole environment; nil inherits the caller's.
        public var environment: [String: String]?
        /// A new session (`setsid`): not hit by signals sent to the caller's process group.
        public var newSession = false
        /// A new process group led by the child, so a signal to `-pid` reaches what it starts.
        public var newProcessGroup = false

        public init(stdin: Source = .inherit, stdout: Source = .inherit, stderr: Source = .inherit,
                    environment: [String: String]? = nil) {
            self.stdin = stdin; self.stdout = stdout; self.stderr = stderr; self.environment = environment
        }
    }

    /// Why a program did not start: its name and `posix_spawnp`'s error number.
    public struct Failure: Error, CustomStringConvertible {
        public let program: String
        public let errno: Int32
        public var description: String { "cannot start \(program): \(String(cString: strerror(errno)))" }
    }

    /// Starts `argv` (`argv[0]` looked up in `PATH`) and returns its pid; the caller reaps it.
    public static func start(_ argv: [String], _ options: Options = Options()) throws(Failure) -> pid_t {
        guard let program = argv.first else { throw Failure(program: "", errno: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, source) in [(Int32(0), options.stdin), (1, options.stdout), (2, options.stderr)] {
            switch source {
            case .inherit: break
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .appending(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .descriptor(let from): posix_spawn_file_actions_adddup2(&actions, from, fd)
            }
        }
        for (fd, from) in options.extra.sorted(by: { $0.key < $1.key }) { posix_spawn_file_actions_adddup2(&actions, from, fd) }
        for fd in options.close { posix_spawn_file_actions_addclose(&actions, fd) }

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t(); sigemptyset(&empty)
        var all = sigset_t(); sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &all)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if options.newSession { flags |= CLINUX_POSIX_SPAWN_SETSID }
        if options.newProcessGroup {
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attr, flags)

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = options.environment.map { env in env.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { cArgs.forEach { free($0) }; cEnv?.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = cEnv.map { env in posix_spawnp(&pid, program, &actions, &attr, cArgs, env) }
            ?? posix_spawnp(&pid, program, &actions, &attr, cArgs, environ)
        guard rc == 0 else { throw Failure(program: program, errno: rc) }
        return pid
    }
}
