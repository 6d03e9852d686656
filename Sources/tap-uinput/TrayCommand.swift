import ArgumentParser
import EventLoop
import TapUinput

/// `tap-uinput tray`: a tray icon (StatusNotifierItem) for the running daemon.
struct TrayIcon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tray",
        abstract: "Show a tray icon with the daemon's devices, keymap and layer, and a menu.",
        discussion: """
            A StatusNotifierItem, as KDE Plasma, waybar's tray and GNOME's AppIndicator extension \
            show them. The tooltip shows each TAP's connection, battery, layer and locks and the \
            active keymap; the menu reloads keymaps, switches keymap, makes a TAP vibrate to find \
            it and opens the cheat sheet of the active keymap. Follows the daemon across restarts \
            and waits for it if it is not running. Runs until Quit, Ctrl-C or SIGTERM.
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: ArgumentHelp("Program that opens the cheat sheet page (run directly, no shell).", valueName: "program"))
    var opener = "xdg-open"

    func run() throws {
        try logging.bootstrap()
        var options = Tray.Options()
        options.opener = [opener]
        let loop = try EventLoop()
        let tray: Tray
        do { tray = try Tray(options: options, loop: loop) } catch { fail(error.description) }
        let code = try tray.run()
        if code != 0 { throw ExitCode(code) }
    }
}
