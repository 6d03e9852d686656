import DBus
import TestKit
import EventLoop
import Glibc
import Testing
@testable import TapBLE

private let A = "AA:BB:CC:00:00:01"
private let B = "AA:BB:CC:00:00:02"
private let nus = TapUUID.nusRX

/// TapManager against the fake bluetoothd on a private bus: discovery, connection,
/// subscriptions, exact writes and their timing, reconnects, bluetoothd and adapter loss.
@Suite struct TapManagerTests {
    @Test func connectsSubscribesWritesModeAndDeliversInputs() throws {
        var o = Harness.fastOptions
        o.requestAirGestureStateOnConnect = true
        let h = try Harness(devices: [Scenario.device(A)], options: o)
        h.manager.start()
        let info = try #require(h.waitConnected(A))
        #expect(h.events.first == .adapterPowered(true))
        #expect(info.name == "Tap_1" && info.hardwareVersion == 30300 && info.firmwareVersion == 20430)
        #expect(info.battery == 80 && info.protocolVersion == .v1 && !info.isTapXR && info.isReady)
        #expect(try h.fake.subscriptions(A) == [TapUUID.tapData: "socket", TapUUID.mouseData: "socket",
                                                TapUUID.airGestures: "socket"])
        h.run { (try? h.fake.writes(A, uuid: nus).count) == 1 }
        let w = try h.fake.writes(A)
        #expect(w.filter { $0.uuid == nus }.map(\.bytes) == [[3, 0x0C, 0, 1]])
        #expect(w.filter { $0.uuid == nus }.map(\.type) == ["request"])
        #expect(w.filter { $0.uuid == TapUUID.airGestures }.map(\.type) == ["command"])
        #expect(h.manager.devices.map(\.mode) == [.controller])

        // Inputs: the air-gesture state answer (fake answers 0D with 14 00), a tap, a mouse packet.
        h.run { h.inputs.contains(.airGestureState(AirGestureState(raw: 0))) }
        try h.inject(A, TapUUID.tapData, [0x05, 0x2C, 0x01, 0x11])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 5, interval: 300, keyboardState: KeyboardState(byte: 0x11))))
        try h.inject(A, TapUUID.mouseData, [0, 1, 0, 2, 0, 0, 0, 0, 0, 1])
        #expect(h.inputs.last == .mouse(MousePacket(vx: 1, vy: 2, isRealMovement: true)))
        // Air-mouse state on: taps 2 and 4 become air gestures 12/14, others stay taps.
        try h.inject(A, TapUUID.airGestures, [0x14, 0x01])
        try h.inject(A, TapUUID.tapData, [0x02])
        #expect(h.inputs.last == .airGesture(.thumbFinger))
        try h.inject(A, TapUUID.tapData, [0x03])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 3)))
        // Hand states go through the majority filter.
        for code: UInt8 in [101, 102, 101] { try h.inject(A, TapUUID.airGestures, [code], expectInput: code == 101) }
        #expect(h.inputs.filter { if case .handState = $0 { true } else { false } } == [.handState(.thumbIndex)])
        // Malformed packets are counted and dropped.
        let before = h.inputs.count
        try h.inject(A, TapUUID.tapData, [0x40], expectInput: false)
        try h.inject(A, TapUUID.mouseData, [0, 1], expectInput: false)
        #expect(h.inputs.count == before)
        #expect(h.manager.malformedPacketCounts[A] == 2)
    }

    @Test func aBurstOfNotificationsIsDeliveredInOrderWithoutTouchingDBus() throws {
        let h = try Harness(devices: [Scenario.device(A, connected: true)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        h.run { (try? h.fake.writes(A, uuid: nus).count) == 1 }
        h.idle(100)
        let sentBefore = h.connection.messagesSent
        let burst: [[UInt8]] = (0..<300).map { (i: Int) -> [UInt8] in
            [UInt8(i % 31 + 1), UInt8(i & 0xFF), UInt8(i >> 8), 0]
        }
        let values: [DBusValue] = burst.map { DBusValue.bytes($0) }
        _ = try h.fake.call("NotifyMany", [.string(A), .string(TapUUID.tapData), .array(elementSignature: "ay", values)])
        h.run { h.inputs.count >= 300 }
        let taps = h.inputs.compactMap { if case .tap(let p) = $0 { p } else { nil } }
        let expectedFingers: [UInt8] = burst.map { $0[0] }
        let expectedIntervals: [UInt16?] = (0..<300).map { UInt16($0) }
        #expect(taps.map(\.fingers) == expectedFingers)
        #expect(taps.map(\.interval) == expectedIntervals)
        // The notification path (socket -> decode -> onEvent) sent nothing on the bus.
        #expect(h.connection.messagesSent == sentBefore)
    }

    @Test func refusedAcquireNotifyFallsBackToStartNotify() throws {
        let h = try Harness(devices: [Scenario.device(A, extra: ["refuse_acquire": [TapUUID.mouseData, TapUUID.tapData]])])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        #expect(try h.fake.subscriptions(A) == [TapUUID.tapData: "props", TapUUID.mouseData: "props",
                                                TapUUID.airGestures: "socket"])
        try h.inject(A, TapUUID.mouseData, [0, 0xFF, 0xFF, 3, 0, 0, 0, 0, 0, 0])
        #expect(h.inputs.last == .mouse(MousePacket(vx: -1, vy: 3, isRealMovement: false)))
        try h.inject(A, TapUUID.tapData, [31])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 31)))
    }

    @Test func nusWritesAreSpacedAndTheModeIsRefreshed() throws {
        var o = Harness.fastOptions
        o.modeRefreshMilliseconds = 500
        // A TapXR (HW 4.0.0): mode then XR state, both refreshed.
        let h = try Harness(devices: [Scenario.device(A, hw: "4.0.0", fw: "3.4.9")], options: o)
        h.manager.start()
        let info = try #require(h.waitConnected(A))
        #expect(info.isTapXR)
        h.run(6000) { ((try? h.fake.writes(A, uuid: nus).count) ?? 0) >= 6 }
        let w = try h.fake.writes(A, uuid: nus)
        #expect(w.prefix(6).map(\.bytes) == [[3, 12, 0, 1], [3, 13, 0, 3], [3, 12, 0, 1], [3, 13, 0, 3], [3, 12, 0, 1], [3, 13, 0, 3]])
        for (a, b) in zip(w, w.dropFirst()) {
            #expect(b.nanos - a.nanos >= 200_000_000, "writes \(a) and \(b) closer than 200 ms")
        }
        // Refreshes: the pairs start one refresh period apart, as sent; the fake sees them with
        // its own delivery jitter, hence the 150 ms allowance below the period.
        let starts = stride(from: 0, to: 6, by: 2).map { w[$0].nanos }
        for (a, b) in zip(starts, starts.dropFirst()) {
            #expect(b - a >= 350_000_000 && b - a < 2_000_000_000, "refresh gap \((b - a) / 1_000_000) ms")
        }
    }

    @Test func perDeviceXRStateIsWrittenAtOnceAndRefreshed() throws {
        var o = Harness.fastOptions
        o.modeRefreshMilliseconds = 700
        let h = try Harness(devices: [Scenario.device(A, hw: "4.1.0"), Scenario.device(B, name: "Tap_2")], options: o)
        h.manager.start()
        try #require(h.waitConnected(A) != nil && h.waitConnected(B) != nil)
        h.manager.setXRState(.tapping, device: A.lowercased())
        h.run(5000) { ((try? h.fake.writes(A, uuid: nus).filter { $0.bytes == [3, 13, 0, 2] }.count) ?? 0) >= 2 }
        let a = try h.fake.writes(A, uuid: nus).map(\.bytes)
        #expect(Array(a.prefix(5)) == [[3, 12, 0, 1], [3, 13, 0, 3], [3, 13, 0, 2], [3, 12, 0, 1], [3, 13, 0, 2]])
        // Not a TapXR: never an XR state.
        #expect(try h.fake.writes(B, uuid: nus).allSatisfy { $0.bytes == [3, 12, 0, 1] })
    }

    @Test func failedWritesKeepTheQueueSpacedAndTheRefreshGoing() throws {
        var o = Harness.fastOptions
        o.modeRefreshMilliseconds = 300
        let h = try Harness(devices: [Scenario.device(A, extra: ["fail_writes": [nus]])], options: o)
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        var result: Bool?
        h.manager.setMode(.controllerWithFullHID, device: A) { result = $0 }
        h.run(5000) { result != nil && ((try? h.fake.writes(A, uuid: nus).count) ?? 0) >= 4 }
        #expect(result == false)
        let w = try h.fake.writes(A, uuid: nus)
        #expect(w.prefix(3).map(\.bytes) == [[3, 12, 0, 1], [3, 12, 0, 5], [3, 12, 0, 5]])
        for (a, b) in zip(w, w.dropFirst()) { #expect(b.nanos - a.nanos >= 200_000_000) }
        #expect(h.manager.devices.first?.isReady == true)
    }

    /// With BlueZ's GATT cache the characteristic objects survive the disconnect; without it
    /// they are removed and added again.
    @Test(arguments: [false, true]) func reconnectsWithBackoffAfterTheLinkDrops(gattCache: Bool) throws {
        let h = try Harness(devices: [Scenario.device(A, extra: ["gatt_cache": gattCache])])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        try h.fake.call("DropLink", [.string(A), .bool(false)])   // out of range: Connect fails
        h.run { h.count { if case .connectFailed = $0 { true } else { false } } >= 2 }
        #expect(h.events.contains(.disconnected(id: A, reason: "link lost")))
        #expect(h.events.contains(.connectFailed(id: A, reason: "org.bluez.Error.Failed: Page Timeout")))
        try h.fake.call("SetReachable", [.string(A), .bool(true)])
        let again = try #require(h.waitConnected(A, count: 2))
        #expect(again.firmwareVersion == 20430)
        // Subscriptions and mode are re-applied on the new link.
        h.run { (try? h.fake.writes(A, uuid: nus).count) == 2 }
        #expect(try h.fake.writes(A, uuid: nus).map(\.bytes) == [[3, 12, 0, 1], [3, 12, 0, 1]])
        try h.inject(A, TapUUID.tapData, [0x01])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 1)))
    }

    @Test func aDeviceThatReconnectsByItselfIsPickedUp() throws {
        var o = Harness.fastOptions
        o.reconnectInitialMilliseconds = 60_000   // the manager's own retry would come far too late
        let h = try Harness(devices: [Scenario.device(A, connected: true)], options: o)
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        try h.fake.call("DropLink", [.string(A), .bool(false)])
        h.run { h.events.contains(.disconnected(id: A, reason: "link lost")) }
        try h.fake.call("LinkUp", [.string(A)])
        #expect(h.waitConnected(A, count: 2, ms: 3000) != nil)
    }

    @Test func aNotificationSocketClosedWhileConnectedIsAcquiredAgain() throws {
        let h = try Harness(devices: [Scenario.device(A, connected: true)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        try h.fake.call("CloseNotify", [.string(A), .string(TapUUID.tapData)])
        h.run { (try? h.fake.subscriptions(A)[TapUUID.tapData]) == nil }
        h.run { (try? h.fake.subscriptions(A)[TapUUID.tapData]) == "socket" }
        #expect(try h.fake.subscriptions(A)[TapUUID.tapData] == "socket")
        try h.inject(A, TapUUID.tapData, [0x10])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 16)))
        #expect(h.count { if case .disconnected = $0 { true } else { false } } == 0)
    }

    @Test func anUnpairedDeviceIsDroppedAndNotReconnected() throws {
        let h = try Harness(devices: [Scenario.device(A, connected: true)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        try h.fake.call("Unpair", [.string(A)])
        h.run { h.events.contains(.disconnected(id: A, reason: "unpaired")) }
        h.idle(500)
        #expect(h.events.contains(.disconnected(id: A, reason: "unpaired")))
        #expect(h.connectedInfos(A).count == 1)
        #expect(h.manager.devices.map(\.isPaired) == [false])
        // Our ends of the notification sockets are closed, which is how BlueZ learns to stop.
        h.run { (try? h.fake.subscriptions(A).isEmpty) == true }
        #expect(try h.fake.subscriptions(A).isEmpty)
    }

    @Test func droppingAManagerWithoutStopReleasesEverything() throws {
        let h = try Harness(devices: [Scenario.device(A, connected: true)])   // its own manager stays unstarted
        var m: TapManager? = TapManager(connection: h.connection, loop: h.loop, options: Harness.fastOptions, logger: h.logger)
        var ready = false
        m?.onEvent = { if case .connected = $0 { ready = true } }
        m?.start()
        h.run { ready }
        try #require(ready)
        weak let weakManager = m
        m = nil
        #expect(weakManager == nil)
        // A notification now must not reach a freed channel, and the sockets must be closed.
        _ = try h.fake.notify(A, TapUUID.tapData, [1])
        h.idle(100)
        h.run { (try? h.fake.subscriptions(A).isEmpty) == true }
        #expect(try h.fake.subscriptions(A).isEmpty)
    }

    @Test func bluetoothdVanishingAndReturning() throws {
        let h = try Harness(devices: [Scenario.device(A)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        h.fake.stop()
        h.run { h.events.contains(.disconnected(id: A, reason: "bluetoothd went away")) }
        #expect(h.events.contains(.disconnected(id: A, reason: "bluetoothd went away")))
        #expect(h.manager.devices.isEmpty)
        try h.restartFake()
        #expect(h.waitConnected(A, count: 2) != nil)
        try h.inject(A, TapUUID.tapData, [0x08])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 8)))
    }

    @Test func adapterPoweringOffAndOn() throws {
        let h = try Harness(devices: [Scenario.device(A)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        try h.fake.call("SetPowered", [.objectPath("/org/bluez/hci0"), .bool(false)])
        h.run { h.events.contains(.adapterPowered(false)) && h.events.contains(.disconnected(id: A, reason: "link lost")) }
        h.idle(500)   // several backoff periods: no connect attempts while the adapter is off
        #expect(h.count { if case .connectFailed = $0 { true } else { false } } == 0)
        try h.fake.call("SetPowered", [.objectPath("/org/bluez/hci0"), .bool(true)])
        #expect(h.waitConnected(A, count: 2) != nil)
        #expect(h.events.filter { if case .adapterPowered = $0 { true } else { false } }
                == [.adapterPowered(true), .adapterPowered(false), .adapterPowered(true)])
    }

    @Test func severalDevicesModesVibrationAndTextOnStop() throws {
        let h = try Harness(devices: [Scenario.device(A), Scenario.device(B, name: "Tap_2", connected: true)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil && h.waitConnected(B) != nil)
        #expect(h.manager.devices.map(\.id) == [A, B])
        h.manager.setMode(.controllerWithMouseHID, device: B)
        h.manager.setDefaultMode(.controllerWithFullHID, applyNow: true)
        h.manager.vibrate([100, 50, 300], device: A)
        h.run { (try? h.fake.writes(A, uuid: nus).count) == 2 && (try? h.fake.writes(B, uuid: nus).count) == 2 }
        #expect(try h.fake.writes(A, uuid: nus).map(\.bytes) == [[3, 12, 0, 1], [3, 12, 0, 5]])
        #expect(try h.fake.writes(B, uuid: nus).map(\.bytes) == [[3, 12, 0, 1], [3, 12, 0, 3]])
        let haptic = try h.fake.writes(A, uuid: TapUUID.uiCommands)
        #expect(haptic.map(\.bytes) == [[0, 2, 10, 5, 30] + Array(repeating: 0, count: 15)])
        #expect(haptic.map(\.type) == ["command"])
        #expect(try h.fake.writes(B, uuid: TapUUID.uiCommands).isEmpty)
        var stopped = false
        h.manager.stop(restoreTextMode: true) { stopped = true }
        h.run { stopped }
        #expect(try h.fake.writes(A, uuid: nus).last?.bytes == [3, 12, 0, 0])
        #expect(try h.fake.writes(B, uuid: nus).last?.bytes == [3, 12, 0, 0])
        #expect(h.events.suffix(2).allSatisfy { if case .disconnected(_, "stopped") = $0 { true } else { false } })
    }

    @Test func rawModeSubscribesDecodesAndChangesSensitivityViaController() throws {
        var o = Harness.fastOptions
        o.defaultMode = .raw(RawSensitivity(fingerAccelerometer: 1, imuGyro: 2, imuAccelerometer: 3))
        let h = try Harness(devices: [Scenario.device(A)], options: o)
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        #expect(try h.fake.subscriptions(A)[TapUUID.nusTX] == "socket")
        let record: [UInt8] = [0x10, 0, 0, 0x80] + Array(repeating: [0x00, 0x01], count: 15).flatMap { $0 }
        try h.inject(A, TapUUID.nusTX, record)
        guard case .raw(let recs)? = h.inputs.last else { Issue.record("no raw input"); return }
        #expect(recs.count == 1 && recs[0].kind == .fingers && recs[0].timestamp == 16)
        #expect(abs(recs[0].values[0] - 256 * 0.00391) < 1e-9)
        h.manager.setMode(.raw(RawSensitivity(fingerAccelerometer: 4, imuGyro: 0, imuAccelerometer: 0)), device: A)
        h.run { (try? h.fake.writes(A, uuid: nus).count) == 3 }
        #expect(try h.fake.writes(A, uuid: nus).map(\.bytes) == [[3, 12, 0, 10, 1, 2, 3], [3, 12, 0, 1], [3, 12, 0, 10, 4, 0, 0]])
    }

    @Test func v2DevicesUseFramesAndKeepalive() throws {
        var o = Harness.fastOptions
        o.modeRefreshMilliseconds = 400
        let h = try Harness(devices: [Scenario.device(A, extra: ["v2": true])], options: o)
        h.manager.start()
        let info = try #require(h.waitConnected(A))
        #expect(info.protocolVersion == .v2)
        #expect(try h.fake.subscriptions(A) == [TapUUID.v2Read: "socket"])
        h.run(4000) { (try? h.fake.writes(A, uuid: TapUUID.v2Write).count) ?? 0 >= 4 }
        let w = try h.fake.writes(A, uuid: TapUUID.v2Write)
        #expect(w.prefix(4).map(\.bytes) == [[0, 0, 0, 0, 1, 1], [1, 0, 1, 0, 0], [1, 0, 0, 0, 0], [2, 0, 0, 0]])
        #expect(w.allSatisfy { $0.type == "request" })
        #expect(try h.fake.writes(A, uuid: nus).isEmpty)
        try h.inject(A, TapUUID.v2Read, [1, 2, 0, 0, 9])
        #expect(h.inputs.last == .tap(TapPacket(fingers: 9)))
        try h.inject(A, TapUUID.v2Read, [1, 3, 0, 0, 109])
        #expect(h.inputs.last == .unifiedAirGesture(.fist))
    }

    @Test func discoveryByServiceUUIDOrNamePrefixOfPairedDevicesOnly() throws {
        let h = try Harness(devices: [
            Scenario.device(A, name: "My strap", extra: ["uuids": [TapUUID.tapService]]),
            Scenario.device(B, name: "Tap_ABC", extra: ["uuids": [String]()]),
            Scenario.device("AA:BB:CC:00:00:03", name: "Keyboard", extra: ["uuids": ["00001812-0000-1000-8000-00805f9b34fb"]]),
            Scenario.device("AA:BB:CC:00:00:04", name: "Tap_unpaired", extra: ["paired": false]),
        ])
        h.manager.start()
        try #require(h.waitConnected(A) != nil && h.waitConnected(B) != nil)
        h.idle(200)
        #expect(h.manager.devices.map(\.id) == [A, B])
        #expect(h.manager.devices.map(\.name) == ["My strap", "Tap_ABC"])
    }

    @Test func unreadableVersionsAndBatteryCharacteristicFallback() throws {
        let h = try Harness(devices: [Scenario.device(A, extra: [
            "unreadable": [TapUUID.firmwareRevision], "battery_char": 42,
        ]).filter { $0.key != "battery" }])
        h.manager.start()
        let info = try #require(h.waitConnected(A))
        #expect(info.firmwareVersion == nil && info.hardwareVersion == 30300 && info.battery == 42)
    }

    @Test func servicesThatNeverResolveCountAsAFailedConnect() throws {
        var o = Harness.fastOptions
        o.connectTimeoutMilliseconds = 300
        let h = try Harness(devices: [Scenario.device(A, extra: ["never_resolves": true])], options: o)
        h.manager.start()
        h.run { h.events.contains(.connectFailed(id: A, reason: "services not resolved within 300 ms")) }
        #expect(h.events.contains(.connectFailed(id: A, reason: "services not resolved within 300 ms")))
        #expect(h.connectedInfos(A).isEmpty)
    }

    @Test func stopWithoutTextThenStartAgain() throws {
        let h = try Harness(devices: [Scenario.device(A, connected: true)])
        h.manager.start()
        try #require(h.waitConnected(A) != nil)
        var stopped = false
        h.manager.stop(restoreTextMode: false) { stopped = true }
        h.run { stopped }
        #expect(h.events.last == .disconnected(id: A, reason: "stopped"))
        #expect(h.manager.devices.isEmpty)
        try h.inject(A, TapUUID.tapData, [1], expectInput: false)
        #expect(h.inputs.isEmpty)
        h.manager.start()
        #expect(h.waitConnected(A, count: 2) != nil)
        h.run { (try? h.fake.writes(A, uuid: nus).count) == 2 }
        #expect(try h.fake.writes(A, uuid: nus).map(\.bytes) == [[3, 12, 0, 1], [3, 12, 0, 1]])
    }

    @Test func systemBusHonoursTheEnvironment() throws {
        let bus = try PrivateBus()
        setenv("DBUS_SYSTEM_BUS_ADDRESS", bus.address, 1)
        let loop = try EventLoop()
        let c = try DBusConnection(bus: .system, loop: loop)
        #expect(c.uniqueName.hasPrefix(":"))
        let id = try c.callBlocking(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", method: "ListNames"))
        #expect(id.first?.stringArray?.contains(c.uniqueName) == true)
        c.close()
    }
}
