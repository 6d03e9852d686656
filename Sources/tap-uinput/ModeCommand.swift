import ArgumentParser

/// `tap-uinput mode`: Set a device's input mode.
struct Mode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set a device's input mode.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'mode' is not built yet")
    }
}
