import ArgumentParser

/// `tap-uinput check`: Validate keymap files.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Validate keymap files.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'check' is not built yet")
    }
}
