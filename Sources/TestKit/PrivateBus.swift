import Foundation

/// A private `dbus-daemon` for one test: started on init, killed by ``stop()`` or deinit.
public final class PrivateBus {
    public let process: Subprocess
    public let address: String
    public let configDir: URL

    public init() throws {
        // Our own config: a listen address in a private temp dir and a policy that lets
        // anyone own any name (the fake BlueZ takes org.bluez).
        configDir = FileManager.default.temporaryDirectory.appendingPathComponent("tapble-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: configDir, withIntermediateDirectories: true)
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(configDir.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configFile = configDir.appendingPathComponent("bus.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        process = try Subprocess(["/usr/bin/dbus-daemon", "--config-file=\(configFile.path)", "--print-address",
                                  "--nofork", "--nopidfile"], silenceStderr: true)
        guard let line = process.readLine(), !line.isEmpty else {
            process.terminate()
            throw TestFailure("dbus-daemon printed no address")
        }
        address = String(line)
    }

    public func stop() {
        process.terminate()
        try? FileManager.default.removeItem(at: configDir)
    }

    deinit { stop() }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
