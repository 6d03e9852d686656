import ArgumentParser

/// `tap-uinput vibrate`: Play a haptic sequence.
struct Vibrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Play a haptic sequence.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'vibrate' is not built yet")
    }
}
