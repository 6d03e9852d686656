import ArgumentParser
import TapUinput

/// `tap-uinput`: the daemon and its tools. `run` is the default subcommand.
@main
struct TapUinputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap-uinput",
        abstract: "Use a TAP Strap / TapXR as a keyboard and pointer on Linux.",
        discussion: """
            Without a subcommand, runs the daemon (`tap-uinput run`) with the keymap from \
            $XDG_CONFIG_HOME/tapuinput/ or the built-in TapCode keymap.
            """,
        version: TapUinputVersion.string,
        subcommands: [
            Run.self, Check.self, Simulate.self,
            Status.self, Reload.self, Focus.self, Monitor.self, TrayIcon.self, Cheatsheet.self,
            Devices.self, Pair.self, Forget.self, Vibrate.self, Mode.self, Raw.self, Doctor.self,
        ],
        defaultSubcommand: Run.self
    )
}
