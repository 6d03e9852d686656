import DBus
import EventLoop
import Glibc
import TapBLE

/// `tap-uinput-bench floor-child --bus ADDRESS --out FILE [--signal]`: the machine's floor,
/// a receiver that does nothing but take the notification in and stamp it.
///
/// It subscribes to tap and mouse data the way the daemon does (AcquireNotify, or StartNotify
/// with a PropertiesChanged match rule when `--signal`), writes one mode command so the
/// benchmark sees it ready, then stamps each datagram as soon as `recv` returns (each
/// signal as soon as libdbus dispatches it). What our daemon takes beyond this floor is what
/// decoding, the engine and the frame writer add; the floor itself is the kernel's wake-up and
/// hand-over cost, which no user-space bridge can avoid.
enum FloorChild {
    static func run(arguments: [String]) -> Int32 {
        guard let bus = DaemonChild.value(of: "--bus", in: arguments), let out = DaemonChild.value(of: "--out", in: arguments) else {
            print("usage: tap-uinput-bench floor-child --bus ADDRESS --out FILE [--signal]")
            return 2
        }
        let signal = arguments.contains("--signal")
        let sink = StampSink(capacity: 1 << 20)
        do {
            let loop = try EventLoop()
            try loop.handleSignals([SIGTERM, SIGINT]) { _ in loop.stop() }
            let conn = try DBusConnection(bus: .address(bus), loop: loop)
            let objects = try conn.callBlocking(.methodCall(destination: BlueZ.service, path: "/", interface: BlueZ.objectManager,
                                                            method: "GetManagedObjects")).first?.dictionary ?? [:]
            var paths: [String: String] = [:]
            for (path, ifaces) in objects {
                if let uuid = ifaces.dictionary?[BlueZ.gattCharacteristic1]?.dictionary?["UUID"]?.string { paths[uuid] = path }
            }
            guard let tap = paths[TapUUID.tapData], let mouse = paths[TapUUID.mouseData], let nus = paths[TapUUID.nusRX] else {
                print("floor-child: TAP characteristics not found")
                return 1
            }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
            for (path, isTap) in [(tap, true), (mouse, false)] {
                let call = { (method: String, args: [DBusValue]) throws -> [DBusValue] in
                    try conn.callBlocking(.methodCall(destination: BlueZ.service, path: path, interface: BlueZ.gattCharacteristic1,
                                                      method: method, arguments: args))
                }
                if signal {
                    conn.subscribe(DBusMatchRule(path: path, interface: BlueZ.properties, member: "PropertiesChanged")) { msg in
                        let now = MonotonicInstant.now().nanoseconds
                        // The same in-place read as the daemon's, so the floor stays the least a receiver can do.
                        _ = msg.withChangedByteValue(of: BlueZ.gattCharacteristic1) { value in
                            guard let first = value.first else { return }
                            sink.stamp(now, code: isTap ? key(first) : 0, isKey: isTap)
                        }
                    }
                    _ = try call("StartNotify", [])
                } else {
                    guard case .unixFD(let fd)? = try call("AcquireNotify", [.dictionary([:])]).first else { return 1 }
                    loop.watch(fd: fd, events: .readable) { _ in
                        while true {
                            let n = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                            guard n > 0 else { return }
                            sink.stamp(MonotonicInstant.now().nanoseconds, code: isTap ? key(buffer[0]) : 0, isKey: isTap)
                        }
                    }
                }
            }
            // Controller mode, as the daemon writes it: the benchmark's "ready" signal.
            _ = try conn.callBlocking(.methodCall(destination: BlueZ.service, path: nus, interface: BlueZ.gattCharacteristic1,
                                                  method: "WriteValue", arguments: [.bytes([3, 12, 0, 1]), .dictionary([:])]))
            loop.run()
        } catch {
            print("floor-child: \(error)")
            return 1
        }
        return sink.dump(to: "\(out)") ? 0 : 1
    }

    /// The benchmark's two chords as the daemon types them (TapCode 3 = KEY_N, 22 = KEY_Q).
    static func key(_ tapcode: UInt8) -> UInt16 {
        DaemonBench.chords.first { $0.code == tapcode }?.key ?? 0
    }
}
