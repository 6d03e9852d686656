import ArgumentParser
import TapUinput

/// `tap-uinput focus [APP_ID [TITLE]]`: Tell the daemon which application has the focus, or
/// show what this session's focus sources report.
struct Focus: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set the focused application, or show what the focus sources see.",
        discussion: """
            With APP_ID, calls the daemon's SetFocus(APP_ID, TITLE), as the GNOME Shell \
            extension and the KWin script do (useful to try a per-application keymap). \
            Without arguments, asks every focus source this session offers (X11, sway/i3, \
            Hyprland, wlroots) what has the focus now and prints the app id a keymap's \
            [match] apps should name.
            """)
    @OptionGroup var logging: LogOptions

    @Argument(help: "The application id (Wayland app id or X11 WM_CLASS class).")
    var appID: String?

    @Argument(help: "The window title.")
    var title: String = ""

    @Option(help: "Milliseconds to wait for the focus sources.")
    var timeout: Int = 1500

    func run() throws {
        try logging.bootstrap()
        if let appID {
            let client = try connectToDaemon()
            try control { try client.setFocus(appID: appID, title: title) }
            return
        }
        let environment = FocusDetection.processEnvironment()
        let sources = FocusDetection.availableSources(environment: environment)
        if sources.isEmpty {
            if let desktop = FocusDetection.pushOnlyDesktop(environment: environment) {
                print("no focus source here: \(desktop) on Wayland reports focus through its "
                      + (desktop == "gnome" ? "GNOME Shell extension" : "KWin script") + " (docs/focus.md)")
            } else {
                print("no focus source in this session (no DISPLAY, WAYLAND_DISPLAY, SWAYSOCK, I3SOCK or HYPRLAND_INSTANCE_SIGNATURE)")
            }
        }
        for report in try FocusProbe.run(sources: sources, timeoutMilliseconds: timeout) {
            if let f = report.focus {
                let app = f.appID.isEmpty ? "nothing focused" : "app id \"\(f.appID)\""
                let instance = f.instance.isEmpty ? "" : ", instance \"\(f.instance)\""
                print("\(report.source): \(app)\(instance), title \"\(f.title)\"")
            } else {
                print("\(report.source): \(report.problem ?? "no answer")")
            }
        }
        // What the daemon itself last saw, if one runs (GNOME/KDE: pushed by the extension/script).
        if let client = try? ControlClient(bus: .session), client.isDaemonRunning(), let status = try? client.status() {
            let app = status.focusApp.isEmpty ? "nothing" : "\"\(status.focusApp)\""
            print("daemon: \(app) via \(status.focusSource.isEmpty ? "-" : status.focusSource), keymap \(status.keymap)")
        }
    }
}
