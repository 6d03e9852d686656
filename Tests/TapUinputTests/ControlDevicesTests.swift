import ChordMap
import Testing
@testable import TapBLE
@testable import TapUinput

/// ``ControlDevices``: which device a Vibrate/SetMode request means, and status entries.
@Suite struct ControlDevicesTests {
    static func info(_ id: String, _ name: String, ready: Bool = true) -> TapDeviceInfo {
        TapDeviceInfo(id: id, name: name, path: "/org/bluez/hci0/dev_" + id.replacingColons, isPaired: true,
                      isConnected: ready, isReady: ready, hardwareVersion: 30000, firmwareVersion: 20331,
                      battery: 87, protocolVersion: .v2, mode: .controller)
    }

    let devices = [info("AA:BB:CC:DD:EE:01", "Tap_Left"), info("AA:BB:CC:DD:EE:02", "Tap_Right"),
                   info("AA:BB:CC:DD:EE:03", "Tap_Off", ready: false)]

    @Test func requestsNameADeviceByAddressOrNameOrAll() throws {
        #expect(try ControlDevices.resolve("", among: devices).get() == nil)
        #expect(try ControlDevices.resolve("aa:bb:cc:dd:ee:02", among: devices).get() == "AA:BB:CC:DD:EE:02")
        #expect(try ControlDevices.resolve("Tap_Left", among: devices).get() == "AA:BB:CC:DD:EE:01")
        #expect(try ControlDevices.resolve("tap_right", among: devices).get() == "AA:BB:CC:DD:EE:02")
        #expect(ControlDevices.resolve("Tap_Off", among: devices) == .failure(.unknownDevice("Tap_Off")))
        #expect(ControlDevices.resolve("nope", among: devices) == .failure(.unknownDevice("nope")))
        #expect(ControlDevices.resolve("", among: [devices[2]]) == .failure(.unknownDevice("")))
    }

    @Test func modesAreParsedOrRefused() throws {
        #expect(try ControlDevices.mode("controller-mouse").get() == .controllerWithMouseHID)
        #expect(try ControlDevices.mode("TEXT").get() == .text)
        guard case .failure(let e) = ControlDevices.mode("warp") else { Issue.record("warp parsed"); return }
        #expect(e.name == "org.freedesktop.DBus.Error.InvalidArgs")
    }

    @Test func statusEntryCarriesTheBLEFacts() {
        let d = ControlStatus.Device(devices[0])
        #expect(d == ControlStatus.Device(id: "AA:BB:CC:DD:EE:01", name: "Tap_Left", connected: true, battery: 87,
                                          hardwareVersion: "3.0.0", firmwareVersion: "2.3.31", mode: "controller"))
        #expect(ControlStatus.Device(devices[2]).connected == false)
    }
}

extension String {
    fileprivate var replacingColons: String { String(map { $0 == ":" ? "_" : $0 }) }
}
