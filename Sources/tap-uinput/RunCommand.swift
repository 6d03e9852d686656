import ArgumentParser

/// `tap-uinput run`: Run the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the daemon.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'run' is not built yet")
    }
}
