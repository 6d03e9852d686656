import DBus
import EventLoop
import Foundation
import Glibc
import TapBLE
import TestKit

/// One bridge under test with its own private dbus-daemon and fake bluetoothd (one paired,
/// connected TAP): our daemon (`daemon-child`) or the Python peer.
final class BenchSubject {
    static let device = "AA:BB:CC:DD:EE:01"

    let name: String
    let argv: (_ bus: String, _ out: String) -> [String]
    let refuseAcquire: Bool
    private(set) var bus: PrivateBus!
    private(set) var fake: Subprocess!
    private(set) var control: DBusConnection!
    private(set) var child: Subprocess!
    let outPath: String
    private(set) var startNanoseconds: UInt64 = 0
    /// Spawn to the daemon's first mode write (it writes the mode once subscribed).
    private(set) var readyNanoseconds: UInt64?
    /// How the fake delivers tap data to this subject ("socket" or "props").
    private(set) var transport = "?"
    var probe: ProcessProbe { ProcessProbe(pid: child.pid) }

    init(name: String, refuseAcquire: Bool, argv: @escaping (String, String) -> [String]) {
        self.name = name
        self.refuseAcquire = refuseAcquire
        self.argv = argv
        outPath = FileManager.default.temporaryDirectory.appendingPathComponent("tap-bench-\(getpid())-\(name.filter(\.isLetter)).txt").path
    }

    /// Starts the bus, the fake and the subject; returns once the subject wrote its mode and
    /// subscribed to tap and mouse data.
    func start(loop: EventLoop, fakeScript: String) throws {
        bus = try PrivateBus()
        var device: [String: Any] = ["address": Self.device, "name": "Tap_Bench", "connected": true, "battery": 80]
        if refuseAcquire { device["refuse_acquire"] = [TapUUID.tapData, TapUUID.mouseData, TapUUID.airGestures, TapUUID.nusTX] }
        let json = String(data: try JSONSerialization.data(withJSONObject: ["devices": [device]]), encoding: .utf8)!
        fake = try Subprocess(["python3", fakeScript, "--address", bus.address, "--scenario", json])
        guard fake.readLine(timeoutMilliseconds: 15_000, where: { $0 == "READY" }) != nil else {
            throw TestFailure("fake bluetoothd did not start")
        }
        control = try DBusConnection(bus: .address(bus.address), loop: loop)
        startNanoseconds = MonotonicInstant.now().nanoseconds
        child = try Subprocess(argv(bus.address, outPath))
        let deadline = MonotonicInstant.now().adding(milliseconds: 60_000)
        while MonotonicInstant.now() < deadline {
            usleep(10_000)
            let subs = try call("Subscriptions", [.string(Self.device)]).first?.dictionary?.compactMapValues(\.string) ?? [:]
            guard let tap = subs[TapUUID.tapData], subs[TapUUID.mouseData] != nil,
                  let first = try modeWrites().first else { continue }
            transport = tap
            readyNanoseconds = first >= startNanoseconds ? first - startNanoseconds : 0
            return
        }
        throw TestFailure("\(name) did not become ready within 60 s")
    }

    @discardableResult
    func call(_ method: String, _ args: [DBusValue] = []) throws -> [DBusValue] {
        try control.callBlocking(.methodCall(destination: "org.bluez", path: "/fake", interface: "org.tapuinput.FakeBlueZ1",
                                             method: method, arguments: args), timeoutMilliseconds: 10_000)
    }

    /// Times of every write to the NUS RX characteristic (mode and input-type commands).
    func modeWrites() throws -> [UInt64] {
        (try call("Writes").first?.array ?? []).compactMap { v -> UInt64? in
            guard case .structure(let m) = v, m.count == 5, case .uint64(let t) = m[0], m[2].string == TapUUID.nusRX else { return nil }
            return t
        }
    }

    /// Has the fake send `packets` to `uuid`, `intervalMicroseconds` apart (0: back to back);
    /// returns their send times once all are out.
    func stream(_ packets: [[UInt8]], uuid: String, intervalMicroseconds: UInt64) throws -> [UInt64] {
        try call("Stream", [.string(Self.device), .string(uuid),
                            .array(elementSignature: "ay", packets.map { .bytes($0) }), .uint64(intervalMicroseconds)])
        while true {
            usleep(50_000)
            let r = try call("StreamTimes")
            guard r.count == 2, r[0].bool == true else { continue }
            return (r[1].array ?? []).compactMap { if case .uint64(let t) = $0 { t } else { nil } }
        }
    }

    /// Waits until the subject's CPU clock stops advancing (it has handled everything queued).
    func settle(maxMilliseconds: Int = 10_000) {
        let end = MonotonicInstant.now().adding(milliseconds: maxMilliseconds)
        var last = probe.cpuNanoseconds
        while MonotonicInstant.now() < end {
            usleep(100_000)
            let now = probe.cpuNanoseconds
            if now - last < 500_000 { return }
            last = now
        }
    }

    /// Stops the subject (SIGTERM) and returns its stamps: `(ns, isKey, code)` in order.
    func stop() -> [(UInt64, Bool, UInt16)] {
        child.terminate(SIGTERM)
        control.close()
        fake.terminate()
        bus.stop()
        let text = ProcessProbe.read(outPath)
        unlink(outPath)
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 3, let t = UInt64(f[0]), let c = UInt16(f[2]) else { return nil }
            return (t, f[1] == "k", c)
        }
    }
}
