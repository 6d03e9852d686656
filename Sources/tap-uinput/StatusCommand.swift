import ArgumentParser
import Foundation
import TapUinput

/// `tap-uinput status`: Show what the running daemon is doing.
///
/// Asks the daemon's control interface (`org.tapuinput.Daemon` on the session bus) for its
/// status: devices, keymap, focused application. Exit status 1 when no daemon runs.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the running daemon's devices, keymap and focus.",
        discussion: "Asks the daemon on the session bus (org.tapuinput.Daemon).")
    @OptionGroup var logging: LogOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try logging.bootstrap()
        let client = try connectToDaemon()
        let status = try control { try client.status() }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
        } else {
            print(ControlText.status(status))
        }
    }
}

/// A client of the running daemon, or exit 1 with why there is none.
func connectToDaemon() throws -> ControlClient {
    let client = try control { try ControlClient(bus: .session) }
    guard client.isDaemonRunning() else { fail(ControlClientError.notRunning.description) }
    return client
}

/// Runs a control request; a failure is printed to standard error and exits 1.
func control<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ControlClientError { fail(error.description) }
}

/// Prints `message` to standard error and exits 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    Foundation.exit(1)
}
