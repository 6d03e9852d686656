import ArgumentParser
import Foundation
import TapUinput

/// `tap-uinput monitor`: Show taps and daemon events live, until Ctrl-C.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each tap and the daemon's events live.",
        discussion: """
            One line per tap: the fingers (x = down, thumb first), the action it produced, the \
            focused application and the layer, and the device. Lines starting with * are \
            connects, disconnects, layer, focus and keymap changes, and keymap errors. Runs \
            until Ctrl-C, and keeps going across daemon restarts. With --json: one JSON object \
            per line for status bars and scripts (waybar's text, tooltip and class included; \
            docs/control.md).
            """)
    @OptionGroup var logging: LogOptions

    @Flag(help: "One JSON object per line: the event and the state after it (for waybar, polybar, scripts).")
    var json = false

    func run() throws {
        try logging.bootstrap()
        let client = try control { try ControlClient(bus: .session) }
        if json {
            let feed = MonitorFeed(client: client) { line in
                print(line)
                fflush(nil)
            }
            feed.start()
            try client.runUntilInterrupted()
            return
        }
        var seenDaemon = false
        client.watch(daemon: { running in
            if running {
                print(seenDaemon ? "* daemon restarted" : "watching the TapUinput daemon; Ctrl-C to stop")
                seenDaemon = true
            } else {
                print(seenDaemon ? "* daemon stopped; waiting for it" : ControlInterface.notRunningMessage + "; waiting for it")
            }
            fflush(nil)   // one line at a time, also into a pipe
        }) { event in
            print(ControlText.monitorLine(event))
            fflush(nil)
        }
        try client.runUntilInterrupted()
    }
}
