import ChordMap
import Glibc

/// The hands the user assigned with `tap-uinput pair --role left|right`: one line per device,
/// `ADDRESS left` or `ADDRESS right` (`#` starts a comment), in `hands.conf` next to the keymaps
/// (``ConfigPaths/handsFile``). It is not a `*.toml` file, so the keymap catalog and its watcher
/// never read it as a keymap; the daemon's watcher reloads it when it changes.
///
/// A keymap's `[hands]` wins over this file (``role(address:name:keymap:)``): the file is the
/// fallback for keymaps that do not say which device is which hand.
///
/// Reading is bounded (``maximumBytes``, ``maximumEntries``) because the daemon reads it on its
/// loop; lines that are not `ADDRESS left|right` are reported and skipped, never fatal.
public struct HandAssignments: Sendable, Equatable {
    /// The file's name, in the configuration directory.
    public static let fileName = "hands.conf"
    /// Address (upper case) -> hand.
    public private(set) var roles: [String: Hand] = [:]

    /// A larger file is not read at all (a few dozen bytes per device is all it ever needs).
    public static let maximumBytes = 64 * 1024
    /// Entries past this many are ignored.
    public static let maximumEntries = 256

    public init(roles: [String: Hand] = [:]) {
        for (address, hand) in roles { self.roles[address.uppercased()] = hand }
    }

    /// The hand assigned to `address`, if any.
    public func hand(of address: String) -> Hand? { roles[address.uppercased()] }

    /// Assigns `hand` to `address` (nil removes it). A pair has one hand of each: the devices
    /// that had this hand lose it, and are returned so the caller can say so.
    @discardableResult
    public mutating func assign(_ hand: Hand?, to address: String) -> [String] {
        let key = address.uppercased()
        let displaced = hand.map { h in roles.filter { $0.key != key && $0.value == h }.keys.sorted() } ?? []
        for d in displaced { roles[d] = nil }
        roles[key] = hand
        return displaced
    }

    /// The role a device plays: the keymap's `[hands]` by address or Bluetooth name first, then
    /// the assigned one; nil: a device of its own.
    public func role(address: String, name: String?, keymap: Keymap) -> Hand? {
        keymap.hands.role(address: address, name: name) ?? hand(of: address)
    }

    // MARK: The file

    /// Parses the file's text; `problems` gets one message per skipped line (`line 3: ...`).
    public init(text: String, problems: inout [String]) {
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.isEmpty { continue }
            guard words.count == 2, Self.isAddress(words[0]), let hand = Hand(rawValue: words[1].lowercased()) else {
                problems.append("line \(lineNumber): expected \"ADDRESS left\" or \"ADDRESS right\"")
                continue
            }
            guard roles.count < Self.maximumEntries || roles[words[0].uppercased()] != nil else {
                problems.append("line \(lineNumber): more than \(Self.maximumEntries) devices; the rest are ignored")
                break
            }
            roles[words[0].uppercased()] = hand
        }
    }

    /// Loads `path`; a missing file is no assignments and no problem. A file that is not a
    /// regular file, cannot be read or is larger than ``maximumBytes`` is reported and ignored.
    public static func load(path: String, problems: inout [String]) -> HandAssignments {
        var st = stat()
        guard stat(path, &st) == 0 else { return HandAssignments() }
        guard st.st_mode & S_IFMT == S_IFREG else {
            problems.append("\(path): not a regular file; ignored")
            return HandAssignments()
        }
        guard st.st_size <= maximumBytes else {
            problems.append("\(path): larger than \(maximumBytes) bytes; ignored")
            return HandAssignments()
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            problems.append("\(path): cannot be read (\(String(cString: strerror(errno)))); ignored")
            return HandAssignments()
        }
        defer { close(fd) }
        // One byte more than allowed: a file that grew since stat() is caught, not half-read.
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var total = 0
        while total < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            total += n
        }
        guard total <= maximumBytes else {
            problems.append("\(path): larger than \(maximumBytes) bytes; ignored")
            return HandAssignments()
        }
        var fileProblems: [String] = []
        let assignments = HandAssignments(text: String(decoding: bytes[0..<total], as: UTF8.self), problems: &fileProblems)
        problems += fileProblems.map { "\(path): \($0)" }
        return assignments
    }

    /// The file's text: a comment saying what it is, then one line per device, sorted.
    public var text: String {
        var lines = ["# Which hand each TAP is worn on (tap-uinput pair --role). A keymap's [hands] wins over this file."]
        lines += roles.keys.sorted().map { "\($0) \(roles[$0]!.rawValue)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes ``text`` to `path` (creating its directory), through a temporary file renamed
    /// over it so a reader never sees half a file.
    public func save(path: String) throws(HandAssignmentsError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty { Self.makeDirectories(directory) }
        let temporary = path + ".new"
        guard let f = fopen(temporary, "w") else { throw HandAssignmentsError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, f)
        let closed = fclose(f)
        guard written == bytes.count, closed == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw HandAssignmentsError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func makeDirectories(_ path: String) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            mkdir(prefix, 0o700)   // EEXIST for the existing ones
        }
    }

    /// `AA:BB:CC:DD:EE:FF`, either case.
    static func isAddress(_ s: Substring) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

/// `hands.conf` could not be written; the message says which file and why.
public struct HandAssignmentsError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension ConfigPaths {
    /// `…/tapuinput/hands.conf`: the roles `tap-uinput pair --role` assigns (``HandAssignments``).
    public var handsFile: String { "\(directory)/\(HandAssignments.fileName)" }
}
