import Logging

/// Logging set-up for the daemon and tools: one stderr stream, a level per subsystem.
///
/// Loggers are labelled `tapuinput.<subsystem>`; ``logger(_:)`` makes one.
public enum LogSetup {
    /// The subsystems a level can be set for.
    public static let subsystems = ["ble", "dbus", "engine", "uinput", "daemon", "focus", "control", "tray"]

    /// A logger for `subsystem` (one of ``subsystems``).
    public static func logger(_ subsystem: String) -> Logger { Logger(label: "tapuinput.\(subsystem)") }

    /// Parses `ble=debug,engine=trace`. Throws a message naming the bad part.
    public static func parseLevels(_ spec: String) throws -> [String: Logger.Level] {
        var result: [String: Logger.Level] = [:]
        for part in spec.split(separator: ",") where !part.isEmpty {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, subsystems.contains(kv[0]) else {
                throw LogSetupError("'\(part)': expected SUBSYSTEM=LEVEL with SUBSYSTEM one of \(subsystems.joined(separator: ", "))")
            }
            guard let level = Logger.Level(rawValue: kv[1]) else {
                throw LogSetupError("'\(part)': unknown level '\(kv[1])'")
            }
            result[kv[0]] = level
        }
        return result
    }

    /// Installs a stderr handler; each logger gets its subsystem's level or `defaultLevel`.
    public static func bootstrap(defaultLevel: Logger.Level, overrides: [String: Logger.Level]) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            let subsystem = label.split(separator: ".").last.map(String.init) ?? label
            handler.logLevel = overrides[subsystem] ?? defaultLevel
            return handler
        }
    }
}

/// A bad `--log` value.
public struct LogSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
