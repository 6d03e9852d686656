import ChordMap
import Glibc

/// Every keymap in the configuration directory, loaded, with each file's problems.
///
/// The directory (``ConfigPaths/directory``) holds the main keymap, `keymap.toml`, and any
/// number of per-application / per-device keymaps: `*.toml` files with a `[match]` table,
/// usually `extends = "keymap.toml"` or `"builtin"`. Hidden files (`.name.toml`, editors'
/// swap and lock files) are skipped.
///
/// Loading is per file: a file with errors never stops the others from loading. A file that
/// loaded before and is broken now keeps its **last good version** (``isStale(_:)``), so a
/// typo saved in `firefox.toml` reports an error but does not switch Firefox to another keymap.
/// A file that is gone is forgotten.
///
/// Which keymap applies to a focused application and device is ``select(app:instance:device:)``;
/// see its precedence rules. Not thread-safe; the daemon uses it on its loop.
public struct KeymapCatalog {
    /// The directory scanned for `*.toml`.
    public let directory: String
    /// The fallback keymap: `keymap.toml` in ``directory``, or an explicit file (`--keymap`).
    public let mainFile: String
    /// Whether ``mainFile`` was given explicitly: then its absence is an error, not "use the
    /// built-in keymap".
    public let mainFileIsExplicit: Bool

    /// The usable version of every keymap file, by path: the current one, or the last good one
    /// when the file is broken now.
    public private(set) var keymaps: [String: LoadedKeymap] = [:]
    /// The problems of every file that failed to load at the last ``reload()``, by path.
    public private(set) var errors: [String: KeymapError] = [:]

    /// An empty catalog; call ``reload()`` to read the files.
    /// - Parameters:
    ///   - directory: the configuration directory (it need not exist).
    ///   - mainFile: an explicit main keymap (`tap-uinput run --keymap FILE`); nil means
    ///     `directory/keymap.toml`, and the built-in keymap when that does not exist.
    public init(directory: String, mainFile: String? = nil) {
        var dir = directory
        while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
        self.directory = dir
        self.mainFile = mainFile ?? "\(dir)/keymap.toml"
        self.mainFileIsExplicit = mainFile != nil
    }

    /// The catalog for the user's configuration directory, loaded.
    public static func load(paths: ConfigPaths, explicitMainFile: String? = nil) -> KeymapCatalog {
        var catalog = KeymapCatalog(directory: paths.directory, mainFile: explicitMainFile)
        catalog.reload()
        return catalog
    }

    /// Re-reads every file. Files are independent: each one's errors land in ``errors`` and
    /// it keeps its last good version, if any.
    ///
    /// - Returns: the problems found now (the same as ``errors``), empty when all is well.
    @discardableResult
    public mutating func reload() -> [String: KeymapError] {
        var files = Self.keymapFiles(in: directory)
        let mainExists = access(mainFile, F_OK) == 0
        if mainExists || mainFileIsExplicit { files.insert(mainFile) }
        var newErrors: [String: KeymapError] = [:]
        var newKeymaps: [String: LoadedKeymap] = [:]
        for file in files {
            do {
                newKeymaps[file] = try LoadedKeymap(file: file)
            } catch {
                newErrors[file] = error
                if let previous = keymaps[file] { newKeymaps[file] = previous }
            }
        }
        keymaps = newKeymaps
        errors = newErrors
        return newErrors
    }

    /// The directories a ``KeymapWatcher`` should watch: ``directory``, and the main file's
    /// directory when an explicit main file lives elsewhere.
    public var watchDirectories: [String] {
        let mainDirectory = KeymapWatcher.parent(of: mainFile)
        return mainDirectory == directory ? [directory] : [directory, mainDirectory]
    }

    /// Whether `file` is in use in its last good version because it is broken now.
    public func isStale(_ file: String) -> Bool { errors[file] != nil && keymaps[file] != nil }

    /// Every current problem, file by file (sorted by path), as `check` prints them.
    public var diagnosticsText: String {
        errors.sorted { $0.key < $1.key }.map(\.value.description).joined(separator: "\n")
    }

    /// All current diagnostics in one error, or nil when every file is fine.
    public var combinedError: KeymapError? {
        guard !errors.isEmpty else { return nil }
        return KeymapError(diagnostics: errors.sorted { $0.key < $1.key }.flatMap(\.value.diagnostics))
    }

    /// The main keymap: ``mainFile``'s usable version, or the built-in keymap when the file
    /// does not exist (or has never loaded).
    public var main: LoadedKeymap {
        keymaps[mainFile] ?? LoadedKeymap.builtin
    }

    /// The keymap for the focused application (and its window title) on a device.
    ///
    /// Candidates are the loaded files other than ``mainFile`` whose `[match]` table names
    /// applications, titles, devices or any of them; every field it names must match (any
    /// entry of a field will do). Precedence, first hit wins, ranked by which fields are
    /// named: titles first, then apps, then devices (``rank(of:)``):
    /// 1. `apps`, `titles` and `devices`; 2. `apps` and `titles`; 3. `titles` and `devices`;
    /// 4. `titles` only; 5. `apps` and `devices`; 6. `apps` only; 7. `devices` only;
    /// 8. the main keymap (``main``): `keymap.toml`, else the built-in keymap.
    /// Within one rank, files are taken in path order (so `10-firefox.toml` beats `20-web.toml`).
    /// A file whose `[match]` is empty is never picked automatically (it is a base for
    /// `extends`, or chosen with `SetKeymap`); the main keymap's own `[match]` is ignored.
    ///
    /// - Parameters:
    ///   - app: ``FocusInfo/appID``; empty when nothing has the focus (only device
    ///     keymaps and the main keymap can then apply).
    ///   - instance: ``FocusInfo/instance`` (X11 `WM_CLASS` instance); `apps` entries match it too.
    ///   - title: ``FocusInfo/title``; `titles` entries match it (an empty title matches only `"*"`).
    ///   - device: the names a device is known by (its id, i.e. address, and its name);
    ///     empty for "no particular device".
    ///
    /// Entries are glob patterns compared case-insensitively (``ChordMap/GlobPattern``).
    public func select(app: String, instance: String = "", title: String = "", device: [String] = []) -> LoadedKeymap {
        let apps = [app, instance].filter { !$0.isEmpty }
        var best: (rank: Int, file: String)?
        for (file, loaded) in keymaps where file != mainFile {
            let match = loaded.keymap.match
            guard let rank = Self.rank(of: match) else { continue }
            if let b = best, (b.rank, b.file) <= (rank, file) { continue }
            if !match.apps.isEmpty, !apps.contains(where: { match.matches(app: $0) }) { continue }
            if !match.titles.isEmpty, !match.matches(title: title) { continue }
            if !match.devices.isEmpty, !device.contains(where: { match.matches(device: $0) }) { continue }
            best = (rank, file)
        }
        return best.flatMap { keymaps[$0.file] } ?? main
    }

    /// 1 (most specific) to 7 by which fields `match` names: titles weigh most, then apps,
    /// then devices; nil when it names none.
    static func rank(of match: KeymapMatch) -> Int? {
        let weight = (match.titles.isEmpty ? 0 : 4) + (match.apps.isEmpty ? 0 : 2) + (match.devices.isEmpty ? 0 : 1)
        return weight == 0 ? nil : 8 - weight
    }

    /// The non-hidden `*.toml` entries of `directory` (regular files or links to them);
    /// empty when it does not exist or cannot be read.
    static func keymapFiles(in directory: String) -> Set<String> {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var files: Set<String> = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard isKeymapFileName(name) else { continue }
            let path = "\(directory)/\(name)"
            var st = stat()
            guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            files.insert(path)
        }
        return files
    }

    /// `*.toml` and not hidden: what the catalog loads and the watcher reacts to.
    static func isKeymapFileName(_ name: String) -> Bool {
        name.hasSuffix(".toml") && !name.hasPrefix(".") && name.count > 5
    }
}

extension LoadedKeymap {
    /// The built-in TapCode keymap (commands are never allowed for it).
    public static var builtin: LoadedKeymap {
        LoadedKeymap(keymap: KeymapLoader.builtinDefault, file: nil,
                     commands: CommandRunner(keymapFile: nil, enabledByKeymap: false))
    }

    /// Same file and same content: switching between the two would change nothing.
    public func isSame(as other: LoadedKeymap) -> Bool {
        file == other.file && keymap == other.keymap
    }
}
