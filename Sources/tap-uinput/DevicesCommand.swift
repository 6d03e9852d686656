import ArgumentParser

/// `tap-uinput devices`: List paired TAP devices.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List paired TAP devices.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'devices' is not built yet")
    }
}
