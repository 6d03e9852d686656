import ArgumentParser

/// `tap-uinput raw`: Stream raw sensor data as CSV.
struct Raw: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Stream raw sensor data as CSV.")
    @OptionGroup var logging: LogOptions

    func run() throws {
        throw ValidationError("'raw' is not built yet")
    }
}
