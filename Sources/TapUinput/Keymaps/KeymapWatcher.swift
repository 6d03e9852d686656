import CLinux
import EventLoop
import Glibc
import Logging

/// Tells the daemon when keymap files change, through inotify on the configuration directory.
///
/// Why the directory and not the files: editors save by writing a new file and renaming it
/// over the old one (vim with `backupcopy=no`, most GUI editors), which replaces the inode a
/// file watch would be on. A directory watch sees every way a file comes to have new
/// contents: `IN_CLOSE_WRITE` (written in place), `IN_MOVED_TO` (renamed over), `IN_CREATE`
/// (a new file or link) and `IN_DELETE` / `IN_MOVED_FROM` (gone).
///
/// Only non-hidden `*.toml` names and the ``otherNames`` asked for (`hands.conf`) count, so
/// swap files, backups (`keymap.toml~`) and vim's `4913` probe do not trigger reloads. Events
/// are coalesced: ``onChange`` runs once on the loop, `settleMilliseconds` after the last event
/// of a burst (an editor's save is several events), and at most `10 × settleMilliseconds`
/// after the first.
///
/// A directory that does not exist yet is waited for: its parent is watched until the
/// directory appears (then that counts as a change), and the same happens again if it is
/// removed or renamed away. A missing parent is logged once and not watched.
///
/// The inotify fd is registered with ``EventLoop/watch(fd:events:handler:)``; nothing
/// polls. ``stop()`` (or deinit) closes it.
public final class KeymapWatcher {
    /// The watched directories (the configuration directory, and the main keymap's directory
    /// when `--keymap` names a file elsewhere).
    public let directories: [String]
    public let settleMilliseconds: Int
    /// File names besides `*.toml` whose changes count (`hands.conf`).
    public let otherNames: Set<String>
    private let loop: EventLoop
    private let onChange: ([String]) -> Void
    private let log = LogSetup.logger("control")
    private var fd: Int32 = -1
    private var fdWatch: EventLoop.Watch?
    /// What one inotify watch is for: a watched directory itself, or the parent of one that
    /// does not exist yet. One watch can have several roles (`/a` watched, and the parent of a
    /// missing `/a/b`): inotify gives one watch descriptor per inode and instance.
    private struct Role: Equatable {
        var directory: String
        var isParent: Bool
    }
    private var roles: [Int32: [Role]] = [:]
    private var pendingNames: Set<String> = []
    private var pending = false
    private var unknownChange = false
    private var settleTimer: EventLoop.Timer?
    private var burstStart: MonotonicInstant?

    /// Starts watching.
    /// - Parameters:
    ///   - directories: directories whose `*.toml` files matter (duplicates are ignored).
    ///   - settleMilliseconds: quiet time that ends a burst of events (100 ms by default).
    ///   - otherNames: other file names in those directories that count as changes.
    ///   - onChange: runs on the loop with the changed files (paths, sorted); empty when it
    ///     is unknown which changed (the directory appeared or went away, or the kernel's
    ///     event queue overflowed): then reload everything.
    /// - Throws: ``KeymapWatcherError`` when inotify itself is unavailable (out of instances).
    public init(directories: [String], loop: EventLoop, settleMilliseconds: Int = 100, otherNames: Set<String> = [],
                onChange: @escaping ([String]) -> Void) throws {
        var unique: [String] = []
        for d in directories.map(Self.trimmed) where !unique.contains(d) { unique.append(d) }
        self.directories = unique
        self.settleMilliseconds = max(1, settleMilliseconds)
        self.otherNames = otherNames
        self.loop = loop
        self.onChange = onChange
        fd = inotify_init1(CLINUX_IN_FLAGS)
        guard fd >= 0 else { throw KeymapWatcherError(errno: errno) }
        for d in unique { arm(d) }
        fdWatch = loop.watch(fd: fd, events: .readable) { [unowned self] _ in self.drain() }
    }

    deinit { stop() }

    /// Stops watching and drops a pending notification. Idempotent.
    public func stop() {
        if let settleTimer { loop.cancel(settleTimer) }
        settleTimer = nil
        if let fdWatch { loop.remove(fdWatch) }
        fdWatch = nil
        if fd >= 0 { close(fd) }
        fd = -1
        roles.removeAll()
    }

    // MARK: Watches

    private static let directoryMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
                                               | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)

    /// Watches `directory`, or its parent until it exists.
    private func arm(_ directory: String) {
        if add(directory, mask: Self.directoryMask, Role(directory: directory, isParent: false)) { return }
        let parent = Self.parent(of: directory)
        if add(parent, mask: Self.parentMask, Role(directory: directory, isParent: true)) {
            log.debug("\(directory) does not exist; watching \(parent) for it")
        } else {
            log.warning("cannot watch \(directory) or \(parent) for keymap changes: \(String(cString: strerror(errno)))")
        }
    }

    /// Adds `role` to the watch on `path`, widening its mask (`IN_MASK_ADD`) rather than
    /// replacing what another role asked for.
    private func add(_ path: String, mask: UInt32, _ role: Role) -> Bool {
        let wd = inotify_add_watch(fd, path, mask | UInt32(IN_MASK_ADD))
        guard wd >= 0 else { return false }
        if !(roles[wd]?.contains(role) ?? false) { roles[wd, default: []].append(role) }
        return true
    }

    /// Drops `role` from watch `wd`, and the watch with its last role.
    private func disarm(_ wd: Int32, _ role: Role) {
        roles[wd]?.removeAll { $0 == role }
        guard roles[wd]?.isEmpty ?? false else { return }
        roles[wd] = nil
        inotify_rm_watch(fd, wd)   // may fail: the kernel drops the watch of a deleted directory itself
    }

    // MARK: Events

    /// Reads every queued event (the fd is non-blocking).
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while fd >= 0 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            parse(buffer[0..<n])
        }
    }

    /// Walks `struct inotify_event { int wd; uint32 mask, cookie, len; char name[len]; }` records.
    private func parse(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            let header = 16
            while offset + header <= raw.count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + header)..<min(raw.count, offset + header + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                handle(wd: wd, mask: mask, name: name)
                offset += header + length
            }
        }
    }

    private func handle(wd: Int32, mask: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            log.warning("inotify queue overflowed; reloading every keymap")
            changed(nil)
            return
        }
        guard let list = roles[wd] else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            // The kernel dropped the watch (its directory was deleted or unmounted): every
            // directory it stood for is looked for again.
            roles[wd] = nil
            for role in list { arm(role.directory) }
            return
        }
        for role in list { handle(role, wd: wd, mask: mask, name: name) }
    }

    private func handle(_ role: Role, wd: Int32, mask: UInt32, name: String) {
        let directory = role.directory
        if role.isParent {
            guard name == Self.lastComponent(of: directory), mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 else { return }
            disarm(wd, role)
            arm(directory)
            changed(nil)
            return
        }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            // Gone or renamed away: wait for a directory of that name again.
            log.info("\(directory) went away; waiting for it to come back")
            disarm(wd, role)
            arm(directory)
            changed(nil)
            return
        }
        guard KeymapCatalog.isKeymapFileName(name) || otherNames.contains(name) else { return }
        changed("\(directory)/\(name)")
    }

    /// Records a change (`nil`: unknown which) and (re)arms the settle timer.
    private func changed(_ path: String?) {
        if let path { pendingNames.insert(path) } else { unknownChange = true }
        pending = true
        let now = MonotonicInstant.now()
        let start = burstStart ?? now
        burstStart = start
        var deadline = now.adding(milliseconds: settleMilliseconds)
        let latest = start.adding(milliseconds: 10 * settleMilliseconds)
        if deadline > latest { deadline = latest }
        if let settleTimer { loop.cancel(settleTimer) }
        settleTimer = loop.schedule(at: deadline) { [unowned self] in self.settled() }
    }

    private func settled() {
        settleTimer = nil
        burstStart = nil
        guard pending else { return }
        let names = unknownChange ? [] : pendingNames.sorted()
        pending = false
        unknownChange = false
        pendingNames.removeAll()
        onChange(names)
    }

    // MARK: Paths

    private static func trimmed(_ path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// inotify could not be set up (`inotify_init1` failed, usually `EMFILE`: the user's
/// `fs.inotify.max_user_instances` is used up).
public struct KeymapWatcherError: Error, CustomStringConvertible {
    public let errno: Int32
    public var description: String { "cannot watch keymap files: inotify_init1: \(String(cString: strerror(errno)))" }
}
