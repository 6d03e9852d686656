import ChordMap
import Glibc
import Spawn

/// The tray's "Open cheat sheet": the `tap-uinput cheatsheet` HTML of the active keymap,
/// written to the user's runtime directory and handed to a viewer.
///
/// The viewer is an argv prefix (`["xdg-open"]`), started directly with the file appended as
/// one more argument: no shell, so a keymap path with spaces or quotes is just a path.
public struct TrayCheatsheet {
    /// Where the page goes: `$XDG_RUNTIME_DIR` (private to the user, in memory, cleaned at logout).
    public var directory: String?
    /// The program that opens the page, and its leading arguments.
    public var opener: [String]

    public init(directory: String?, opener: [String]) {
        self.directory = directory
        self.opener = opener
    }

    /// The page's path: one file, rewritten each time, so opening it twice leaves no litter.
    public var file: String? { directory.map { $0 + "/tapuinput-cheatsheet.html" } }

    /// Writes the sheet for the keymap in `keymapFile` ("" = the built-in keymap) and starts the
    /// opener on it; returns the opener's pid (the caller reaps it on SIGCHLD).
    /// - Throws: a ``TrayError`` saying what failed (no runtime directory, the keymap does not
    ///   load, the file cannot be written, the opener cannot start).
    @discardableResult
    public func open(keymapFile: String) throws(TrayError) -> pid_t {
        guard let directory, !directory.isEmpty, let file else {
            throw TrayError("no XDG_RUNTIME_DIR to write the cheat sheet to")
        }
        let keymap: Keymap
        do {
            keymap = keymapFile.isEmpty ? KeymapLoader.builtinDefault : try KeymapLoader.load(path: keymapFile)
        } catch {
            throw TrayError("cannot load \(keymapFile) for the cheat sheet: \(error.description.split(separator: "\n").first ?? "")")
        }
        let html: String
        do { html = try CheatsheetRenderer(keymap: keymap).render(.html) } catch { throw TrayError("cheat sheet: \(error)") }
        try Self.write(html, to: file)
        guard !opener.isEmpty else { throw TrayError("no program to open the cheat sheet with") }
        do {
            // Its own session: the browser it starts outlives a Ctrl-C to the tray.
            var options = Spawn.Options(stdin: .null)
            options.newSession = true
            return try Spawn.start(opener + [file], options)
        } catch {
            throw TrayError("\(error.description)")
        }
    }

    /// Writes through a temporary file renamed into place, so a viewer never reads half a page.
    static func write(_ text: String, to path: String) throws(TrayError) {
        let temporary = path + ".tmp"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw TrayError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw TrayError("cannot write \(temporary): \(why)")
            }
            bytes = bytes.dropFirst(n)
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw TrayError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// A tray action or start-up step that failed; the text says what and why.
public struct TrayError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
