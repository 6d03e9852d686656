import ChordMap

/// A keymap the daemon can run: the keymap, where it came from, and its command policy.
public struct LoadedKeymap {
    public let keymap: Keymap
    /// The file it was read from; nil for the built-in keymap.
    public let file: String?
    public let commands: CommandRunner

    init(keymap: Keymap, file: String?, commands: CommandRunner) {
        self.keymap = keymap
        self.file = file
        self.commands = commands
    }

    /// Loads `file` (and what it extends); its commands are checked against every file read.
    /// - Throws: ``ChordMap/KeymapError`` with file:line:column diagnostics.
    public init(file: String) throws(KeymapError) {
        let keymap = try KeymapLoader.load(path: file)
        self.init(keymap: keymap, file: file, commands: CommandRunner(keymap: keymap, file: file))
    }
}
