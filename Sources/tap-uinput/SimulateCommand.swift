import ArgumentParser

/// `tap-uinput simulate`: Print what a tap script would type.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print what a tap script would type.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'simulate' is not built yet")
    }
}
