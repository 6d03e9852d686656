import ChordMap
import Glibc
import Spawn

/// Runs the programs a keymap's `run` actions name, under the project's security rules.
///
/// - Off unless the keymap itself enables commands.
/// - Only from a keymap *file* that is owned by the user running the daemon and is not
///   writable by group or others, and the same for every file it `extends`: otherwise another
///   local user could make the daemon run arbitrary programs as this user.
/// - argv only, executed directly with `posix_spawnp`: no shell, so no quoting, globbing or
///   `;`-chaining surprises. The child gets its own session and `/dev/null` as stdin.
///
/// Children are reaped with `waitpid(WNOHANG)` by ``reapChildren()``, which the daemon calls
/// from its SIGCHLD handler, so none is left a zombie.
public struct CommandRunner {
    /// Why a command was not run.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case disabledByKeymap
        case noKeymapFile
        case keymapUnreadable(path: String)
        case keymapNotOwnedByUser(path: String, owner: UInt32)
        case keymapWritableByOthers(path: String)
        case emptyCommand
        case spawnFailed(program: String, errno: Int32)

        public var description: String {
            switch self {
            case .disabledByKeymap:
                return "commands are disabled: set `allow-commands = true` in the keymap to enable them"
            case .noKeymapFile:
                return "commands only run from a keymap file, not from the built-in keymap"
            case .keymapUnreadable(let path):
                return "cannot stat keymap \(path); commands refused"
            case .keymapNotOwnedByUser(let path, let owner):
                return "keymap \(path) is owned by uid \(owner), not by this user (\(getuid())); commands refused"
            case .keymapWritableByOthers(let path):
                return "keymap \(path) is writable by group or others; run `chmod go-w \(path)` to allow its commands"
            case .emptyCommand:
                return "empty command"
            case .spawnFailed(let program, let errno):
                return "could not start \(program): \(String(cString: strerror(errno)))"
            }
        }
    }

    public let keymapFile: String?
    public let enabledByKeymap: Bool
    /// The files `keymapFile` extends, checked like it.
    public let inheritedFiles: [String]

    public init(keymapFile: String?, enabledByKeymap: Bool, inheritedFiles: [String] = []) {
        self.keymapFile = keymapFile
        self.enabledByKeymap = enabledByKeymap
        self.inheritedFiles = inheritedFiles
    }

    /// The policy for `keymap`, loaded from `file` (nil: the built-in keymap).
    public init(keymap: Keymap, file: String?) {
        self.init(keymapFile: file, enabledByKeymap: keymap.options.allowCommands,
                  inheritedFiles: keymap.files.filter { $0 != file })
    }

    /// Nil when commands may run, else the reason they may not. Checked on every run, so a
    /// keymap made group-writable after loading stops its commands at once.
    public func refusal() -> Refusal? {
        guard enabledByKeymap else { return .disabledByKeymap }
        guard let file = keymapFile else { return .noKeymapFile }
        for path in [file] + inheritedFiles {
            var st = stat()
            guard stat(path, &st) == 0 else { return .keymapUnreadable(path: path) }
            guard st.st_uid == getuid() else { return .keymapNotOwnedByUser(path: path, owner: st.st_uid) }
            guard st.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return .keymapWritableByOthers(path: path) }
        }
        return nil
    }

    /// Starts `argv[0]` (searched in `PATH`) with `argv`, without waiting for it.
    /// - Returns: the child's pid.
    @discardableResult
    public func run(_ argv: [String]) throws(Refusal) -> pid_t {
        if let refusal = refusal() { throw refusal }
        guard let program = argv.first, !program.isEmpty else { throw .emptyCommand }
        let argv = Self.launch(argv, environment: getenv("INVOCATION_ID").map { ["INVOCATION_ID": String(cString: $0)] } ?? [:])
        // A new session: the child is not hit by signals sent to the daemon's process group.
        var options = Spawn.Options(stdin: .null)
        options.newSession = true
        do {
            return try Spawn.start(argv, options)
        } catch {
            throw .spawnFailed(program: program, errno: error.errno)
        }
    }

    /// What to execute for `argv`. Under systemd (the user service sets `INVOCATION_ID`) the
    /// program is started as a transient unit of the user's manager with `systemd-run`, so it
    /// does not inherit the daemon's sandbox (no network, read-only home, no JIT) and is not
    /// stopped with it; elsewhere it is started directly.
    static func launch(_ argv: [String], environment: [String: String],
                       systemdRun: String? = findSystemdRun()) -> [String] {
        guard environment["INVOCATION_ID"] != nil, let systemdRun else { return argv }
        return [systemdRun, "--user", "--collect", "--quiet", "--"] + argv
    }

    private static func findSystemdRun() -> String? {
        ["/usr/bin/systemd-run", "/bin/systemd-run"].first { access($0, X_OK) == 0 }
    }

    /// Reaps every exited child without blocking. Returns how many were reaped.
    @discardableResult
    public static func reapChildren() -> Int {
        var count = 0
        var status: Int32 = 0
        while waitpid(-1, &status, WNOHANG) > 0 { count += 1 }
        return count
    }
}
