import Glibc

/// Where the daemon looks for its keymaps (XDG Base Directory spec).
///
/// The main keymap is `$XDG_CONFIG_HOME/tapuinput/keymap.toml` (`~/.config/tapuinput/…` when
/// the variable is unset or not absolute). When that file does not exist the built-in
/// TapCode keymap is used.
public struct ConfigPaths: Sendable, Equatable {
    /// `…/tapuinput`, whether or not it exists.
    public let directory: String

    /// Resolves the directory from `environment` (the process environment by default).
    public init(environment: [String: String] = ConfigPaths.processEnvironment()) {
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        var base = xdg ?? "\(environment["HOME"] ?? "")/.config"
        while base.hasSuffix("/") { base.removeLast() }
        directory = "\(base)/tapuinput"
    }

    /// The main keymap file's path, whether or not it exists.
    public var keymapFile: String { "\(directory)/keymap.toml" }

    /// The main keymap file if it exists and is readable, else nil (use the built-in).
    public var existingKeymapFile: String? { access(keymapFile, R_OK) == 0 ? keymapFile : nil }

    /// The current process environment as a dictionary.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { result[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return result
    }
}
