import ChordMap

/// The keymap the daemon runs with, where it came from, and its command policy.
public struct LoadedKeymap {
    public let keymap: Keymap
    /// The file it was read from; nil for the built-in keymap.
    public let file: String?
    public let commands: CommandRunner

    /// Loads `path` if given, else the user's keymap file if it exists, else the built-in.
    ///
    /// - Throws: ``ChordMap/KeymapError`` with file:line:column diagnostics. The caller
    ///   keeps the keymap it runs with (on reload) or exits with the message (at start).
    public static func load(explicitPath: String?, paths: ConfigPaths) throws(KeymapError) -> LoadedKeymap {
        guard let file = explicitPath ?? paths.existingKeymapFile else {
            return LoadedKeymap(keymap: KeymapLoader.builtinDefault, file: nil,
                                commands: CommandRunner(keymapFile: nil, enabledByKeymap: false))
        }
        let keymap = try KeymapLoader.load(path: file)
        return LoadedKeymap(keymap: keymap, file: file,
                            commands: CommandRunner(keymap: keymap, file: file))
    }
}
