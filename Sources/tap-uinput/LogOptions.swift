import ArgumentParser
import Logging
import TapUinput

/// Logging flags shared by every subcommand.
///
/// Levels are set per subsystem, like the vendor SDK's log categories:
/// `--log-level info --log ble=debug,engine=trace`. Subsystems: see ``LogSetup/subsystems``.
struct LogOptions: ParsableArguments {
    @Option(help: "Default log level (trace, debug, info, notice, warning, error, critical).")
    var logLevel: Logger.Level = .info

    @Option(name: .customLong("log"), help: "Per-subsystem levels, e.g. ble=debug,engine=trace.")
    var subsystemLevels: String?

    /// Installs the logging backend. Call once, first thing in `run()`.
    func bootstrap() throws {
        let overrides = try LogSetup.parseLevels(subsystemLevels ?? "")
        LogSetup.bootstrap(defaultLevel: logLevel, overrides: overrides)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
