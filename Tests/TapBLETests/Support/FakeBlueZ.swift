import DBus
import TestKit
import EventLoop
import Foundation
@testable import TapBLE

/// The Python fake bluetoothd (Fixtures/fake_bluez.py) on a private bus, and a control
/// connection to drive it.
final class FakeBlueZ {
    static var script: String {
        if let url = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/fake_bluez.py"),
           FileManager.default.fileExists(atPath: url.path) { return url.path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fake_bluez.py").path
    }

    let process: Subprocess
    let control: DBusConnection

    init(busAddress: String, loop: EventLoop, scenario: [String: Any]) throws {
        let json = String(data: try JSONSerialization.data(withJSONObject: scenario), encoding: .utf8)!
        process = try Subprocess(["python3", Self.script, "--address", busAddress, "--scenario", json])
        guard process.readLine(timeoutMilliseconds: 15_000, where: { $0 == "READY" }) != nil else {
            process.terminate()
            throw TestFailure("fake bluez did not start")
        }
        control = try DBusConnection(bus: .address(busAddress), loop: loop)
    }

    func stop() {
        control.close()
        process.terminate()
    }

    deinit { stop() }

    @discardableResult
    func call(_ method: String, _ args: [DBusValue] = []) throws -> [DBusValue] {
        try control.callBlocking(.methodCall(destination: "org.bluez", path: "/fake", interface: "org.tapuinput.FakeBlueZ1",
                                             method: method, arguments: args), timeoutMilliseconds: 5000)
    }

    /// Sends a notification; returns how it went out ("socket", "props", "unsubscribed").
    @discardableResult
    func notify(_ address: String, _ uuid: String, _ bytes: [UInt8]) throws -> String {
        try call("Notify", [.string(address), .string(uuid), .bytes(bytes)]).first?.string ?? ""
    }

    struct Write: Equatable, CustomStringConvertible {
        let nanos: UInt64; let address: String; let uuid: String; let bytes: [UInt8]; let type: String
        var description: String { "\(address) \(uuid.prefix(8)) \(hex(bytes)) \(type) @\(nanos / 1_000_000)" }
    }

    func writes(_ address: String? = nil, uuid: String? = nil) throws -> [Write] {
        let all = try call("Writes").first?.array ?? []
        return all.compactMap { v -> Write? in
            guard case .structure(let m) = v, m.count == 5, case .uint64(let t) = m[0], let a = m[1].string,
                  let u = m[2].string, let b = m[3].bytes, let ty = m[4].string else { return nil }
            return Write(nanos: t, address: a, uuid: u, bytes: b, type: ty)
        }.filter { (address == nil || $0.address == address) && (uuid == nil || $0.uuid == uuid) }
    }

    func subscriptions(_ address: String) throws -> [String: String] {
        (try call("Subscriptions", [.string(address)]).first?.dictionary ?? [:]).compactMapValues(\.string)
    }
}

/// Scenario helpers.
enum Scenario {
    static func device(_ address: String, name: String = "Tap_1", connected: Bool = false, hw: String = "3.3.0",
                       fw: String = "2.4.30", extra: [String: Any] = [:]) -> [String: Any] {
        var d: [String: Any] = ["address": address, "name": name, "connected": connected, "hw": hw, "fw": fw, "battery": 80]
        d.merge(extra) { _, new in new }
        return d
    }
}
