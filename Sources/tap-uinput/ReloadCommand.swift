import ArgumentParser
import TapUinput

/// `tap-uinput reload`: Make the daemon re-read its keymap files now.
///
/// The daemon also reloads by itself when a file in its configuration directory changes;
/// this is for files elsewhere (`extends` targets, a `SetKeymap` file) and for scripts.
/// Exit status 1 with every diagnostic when a keymap is broken (the running one stays).
struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the running daemon re-read its keymap files.",
        discussion: """
            Prints the keymap in use afterwards. When a file is broken, prints its problems \
            (file:line:column) and exits 1; the daemon keeps the keymap it runs with.
            """)
    @OptionGroup var logging: LogOptions

    func run() throws {
        try logging.bootstrap()
        let client = try connectToDaemon()
        try control { try client.reload() }
        let status = try control { try client.status() }
        print("reloaded: keymap \(status.keymap) (\(status.keymapFile.isEmpty ? "built-in" : status.keymapFile))")
    }
}
