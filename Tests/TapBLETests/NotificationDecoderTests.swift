import Testing
@testable import TapBLE

/// The per-device rules that change what a notification means, without BlueZ.
@Suite struct NotificationDecoderTests {
    func decode(_ d: inout NotificationDecoder, _ bytes: [UInt8], _ kind: NotifyKind) -> NotificationDecoder.Decoded {
        bytes.withUnsafeBytes { d.decode($0, kind: kind) }
    }

    @Test func inTheAirMouseStateTwoAndFourFingerTapsAreTheAirGestures() {
        var d = NotificationDecoder(divertTapsInAirMouseState: true)
        #expect(decode(&d, [2], .tap) == .input(.tap(TapPacket(fingers: 2))))
        #expect(decode(&d, [0x14, 1], .air) == .input(.airGestureState(AirGestureState(raw: 1))))
        #expect(decode(&d, [2], .tap) == .input(.airGesture(AirGesture(rawValue: 12))))
        #expect(decode(&d, [4], .tap) == .input(.airGesture(AirGesture(rawValue: 14))))
        #expect(decode(&d, [3], .tap) == .input(.tap(TapPacket(fingers: 3))))
        // Leaving the state, or a reconnect, ends the diversion.
        #expect(decode(&d, [0x14, 0], .air) == .input(.airGestureState(AirGestureState(raw: 0))))
        #expect(decode(&d, [2], .tap) == .input(.tap(TapPacket(fingers: 2))))
        _ = decode(&d, [0x14, 1], .air)
        d.reset()
        #expect(decode(&d, [2], .tap) == .input(.tap(TapPacket(fingers: 2))))

        var off = NotificationDecoder(divertTapsInAirMouseState: false)
        _ = decode(&off, [0x14, 1], .air)
        #expect(decode(&off, [2], .tap) == .input(.tap(TapPacket(fingers: 2))))
    }

    @Test func handStatesAreFilteredToChanges() {
        var d = NotificationDecoder(divertTapsInAirMouseState: true)
        #expect(decode(&d, [100], .air) == .input(.handState(.open)))
        #expect(decode(&d, [100], .air) == .nothing)
        #expect(decode(&d, [101], .air) == .nothing)            // one sample is not a majority
        #expect(decode(&d, [101], .air) == .input(.handState(.thumbIndex)))
    }

    @Test func malformedPacketsAreCountedAndUndocumentedValuesNamedOnce() {
        var d = NotificationDecoder(divertTapsInAirMouseState: true)
        #expect(decode(&d, [], .tap) == .malformed)
        #expect(decode(&d, [32], .tap) == .malformed)
        #expect(decode(&d, [1, 2, 3], .mouse) == .malformed)
        #expect(d.malformedPackets == 3)
        #expect(d.takeNotice() == nil)
        let oddMouse: [UInt8] = [7, 1, 0, 2, 0, 0, 0, 0, 0, 1]
        guard case .input(.mouse) = decode(&d, oddMouse, .mouse) else { Issue.record("not a mouse packet"); return }
        #expect(d.takeNotice() == "mouse message type 7")
        _ = decode(&d, oddMouse, .mouse)
        #expect(d.takeNotice() == nil)                           // once per value
        _ = decode(&d, [42], .air)
        #expect(d.takeNotice() == "air gesture code 42")
    }

    @Test func rawRecordsCarryTheSensitivityOfTheModeWritten() {
        var d = NotificationDecoder(divertTapsInAirMouseState: true)
        // One IMU record: timestamp 77, six samples.
        let record: [UInt8] = [77, 0, 0, 0] + [Int16](arrayLiteral: 1000, -1000, 0, 8197, 1, -1).flatMap {
            [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)]
        }
        let sensitive = RawSensitivity(fingerAccelerometer: 3, imuGyro: 2, imuAccelerometer: 1)
        d.rawSensitivity = sensitive
        guard case .input(.raw(let records)) = decode(&d, record, .raw) else { Issue.record("not a raw record"); return }
        #expect(records == [RawSensorRecord(kind: .imu, timestamp: 77, raw: [1000, -1000, 0, 8197, 1, -1], sensitivity: sensitive)])
        #expect(records != [RawSensorRecord(kind: .imu, timestamp: 77, raw: [1000, -1000, 0, 8197, 1, -1], sensitivity: RawSensitivity())])
    }
}
