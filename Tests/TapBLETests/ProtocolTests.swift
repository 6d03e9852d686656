import Testing
@testable import TapBLE

private func withBytes<T>(_ b: [UInt8], _ f: (UnsafeRawBufferPointer) -> T) -> T { b.withUnsafeBytes(f) }

@Suite struct TapPacketTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]; let expected: TapPacket?
        var testDescription: String { hex(bytes) }
    }
    static let cases: [Case] = [
        // tap-protocol.md §9 example: 05 xx xx 00 = thumb+middle ("d"), single, shift off.
        Case(bytes: [0x05, 0x34, 0x12, 0x00], expected: TapPacket(fingers: 5, interval: 0x1234, keyboardState: KeyboardState(byte: 0))),
        Case(bytes: [0x1F], expected: TapPacket(fingers: 31)),
        Case(bytes: [0x02, 0x10], expected: TapPacket(fingers: 2)),
        Case(bytes: [0x00, 0x00, 0x00, 0x01], expected: TapPacket(fingers: 0, interval: 0, keyboardState: KeyboardState(byte: 1))),
        Case(bytes: [0x03, 0x2C, 0x01, 0x36, 0x99], expected: TapPacket(fingers: 3, interval: 300, keyboardState: KeyboardState(byte: 0x36))),
        Case(bytes: [], expected: nil),
        Case(bytes: [0x20, 0, 0, 0], expected: nil),
    ]
    @Test(arguments: cases) func decode(_ c: Case) {
        #expect(withBytes(c.bytes, TapPacket.decode) == c.expected)
    }

    @Test(arguments: [
        (UInt8(0x00), KeyboardState.Shift.off, false, 1), (0x01, .on, false, 1), (0x02, .locked, false, 1),
        (0x04, .off, true, 1), (0x0C, .off, true, 1), (0x10, .off, false, 2), (0x30, .off, false, 3),
        (0x20, .off, false, 3), (0x35, .on, true, 3),
    ]) func keyboardStateBits(_ byte: UInt8, _ shift: KeyboardState.Shift, _ switchOn: Bool, _ repeats: Int) {
        let s = KeyboardState(byte: byte)
        #expect(s.shift == shift && s.switchOn == switchOn && s.repeatCount == repeats)
    }
}

@Suite struct MousePacketTests {
    @Test func pythonSDKVector() throws {
        // tap-python-sdk tests/test_parsers.py test_mouse_data_msg.
        let p = try #require(withBytes([0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01], MousePacket.decode))
        #expect(p == MousePacket(vx: 1, vy: 2, isRealMovement: true))
    }
    @Test func negativeVelocitiesDtAndOrientation() throws {
        let b: [UInt8] = [0x00, 0xFE, 0xFF, 0x00, 0x80, 0x10, 0x27, 0x00, 0x00, 0x00, 0x5A, 0x00, 0xA6, 0xFF, 0x68, 0x01]
        let p = try #require(withBytes(b, MousePacket.decode))
        #expect(p.vx == -2 && p.vy == Int16.min && p.dt == 10000 && !p.isRealMovement)
        #expect(p.orientation == MousePacket.Orientation(roll: 90, pitch: -90, yaw: 360))
    }
    @Test func shortPacketsAreRejectedAndNonZeroTypeIsKept() {
        #expect(withBytes([0, 1, 0, 2, 0, 0, 0, 0, 0], MousePacket.decode) == nil)
        #expect(withBytes([7, 1, 0, 2, 0, 0, 0, 0, 0, 1], MousePacket.decode)?.messageType == 7)
        // 10..15 bytes: no orientation.
        #expect(withBytes([0, 1, 0, 2, 0, 0, 0, 0, 0, 1, 1, 2, 3], MousePacket.decode)?.orientation == nil)
    }
}

@Suite struct AirGestureTests {
    @Test(arguments: [
        ([UInt8(0x14), 0x01], AirGestureMessage.state(AirGestureState(raw: 1))),
        ([0x14, 0x00], .state(AirGestureState(raw: 0))),
        ([0x14, 0x02], .state(AirGestureState(raw: 2))),
        ([0x0A], .gesture(.pinch)),
        ([0x02, 0x00], .gesture(.upOneFinger)),
        ([100], .handState(.open)), ([101], .handState(.thumbIndex)), ([105], .handState(.fist)),
        ([106], .gesture(AirGesture(rawValue: 106))),
    ]) func decode(_ bytes: [UInt8], _ expected: AirGestureMessage) {
        #expect(withBytes(bytes, AirGestureMessage.decode) == expected)
    }
    @Test func truncatedStateIsMalformed() {
        #expect(withBytes([0x14], AirGestureMessage.decode) == nil)
        #expect(withBytes([], AirGestureMessage.decode) == nil)
        #expect(AirGestureState(raw: 1).isAirMouse && !AirGestureState(raw: 2).isAirMouse)
    }
    @Test func handStateMajorityOfThree() {
        var f = HandStateFilter()
        let input: [HandState] = [.open, .thumbIndex, .open, .thumbIndex, .thumbIndex, .thumbMiddle, .fist, .thumbMiddle, .thumbMiddle]
        let out = input.map { f.add($0) }
        // open (first sample); [o,i,o] open; [i,o,i] index; [o,i,i] -; [i,i,m] -; [i,m,f] tie keeps index;
        // [m,f,m] middle; [f,m,m] -.
        #expect(out == [.open, nil, nil, .thumbIndex, nil, nil, nil, .thumbMiddle, nil])
    }
}

@Suite struct RawSensorTests {
    static func record(meta: UInt32, _ samples: [Int16]) -> [UInt8] {
        var b = withUnsafeBytes(of: meta.littleEndian) { Array($0) }
        for s in samples { b += withUnsafeBytes(of: s.littleEndian) { Array($0) } }
        return b
    }

    @Test func imuAndFingerRecordsScaledByDefaultSensitivity() throws {
        let bytes = Self.record(meta: 1234, [1000, -1000, 0, 8197, 0, -8197])
            + Self.record(meta: 0x8000_0000 | 1240, Array(repeating: 32, count: 14) + [-32])
        let recs = try #require(withBytes(bytes) { RawSensorRecord.decode($0, sensitivity: RawSensitivity()) })
        #expect(recs.count == 2)
        #expect(recs[0].kind == .imu && recs[0].timestamp == 1234 && recs[0].raw[1] == -1000)
        #expect(abs(recs[0].values[0] - 17.5) < 1e-9)            // 1000 LSB * 17.5 mdps = 17.5 dps
        #expect(abs(recs[0].values[3] - 1.000034) < 1e-6)        // 8197 * 0.122 mg
        #expect(recs[1].kind == .fingers && recs[1].timestamp == 1240 && recs[1].raw.count == 15)
        #expect(recs[1].values[0] == 1.0 && recs[1].values[14] == -1.0)   // 32 * 31.25 mg
    }

    @Test(arguments: [
        (RawSensitivity(fingerAccelerometer: 1, imuGyro: 1, imuAccelerometer: 1), 0.00391, 0.004375, 0.000061),
        (RawSensitivity(fingerAccelerometer: 3, imuGyro: 5, imuAccelerometer: 4), 0.01562, 0.070, 0.000488),
        (RawSensitivity(fingerAccelerometer: 2, imuGyro: 2, imuAccelerometer: 3), 0.00781, 0.00875, 0.000244),
    ]) func scaleTables(_ s: RawSensitivity, _ finger: Double, _ gyro: Double, _ acc: Double) {
        #expect(abs(s.fingerScale - finger) < 1e-12 && abs(s.gyroScale - gyro) < 1e-12 && abs(s.imuAccelerometerScale - acc) < 1e-12)
    }

    @Test func csvFields() {
        let imu = RawSensorRecord(kind: .imu, timestamp: 77, raw: [1000, -1000, 0, 8197, 1, -1], sensitivity: RawSensitivity())
        #expect(imu.csvFields() == "imu,77,17.500000,-17.500000,0.000000,1.000034,0.000122,-0.000122")
        #expect(imu.csvFields(rawValues: true) == "imu,77,1000,-1000,0,8197,1,-1")
        let f = RawSensorRecord(kind: .fingers, timestamp: 5, raw: Array(repeating: -32, count: 15), sensitivity: RawSensitivity())
        #expect(f.csvFields().hasPrefix("fingers,5,-1.000000,-1.000000,") && f.csvFields().split(separator: ",").count == 17)
    }

    @Test func zeroMetaEndsParsingAndTruncationIsMalformed() {
        let one = Self.record(meta: 5, [1, 2, 3, 4, 5, 6])
        #expect(withBytes(one + [0, 0, 0, 0, 9, 9]) { RawSensorRecord.decode($0, sensitivity: .init()) }?.count == 1)
        #expect(withBytes(one + Self.record(meta: 6, [1, 2])) { RawSensorRecord.decode($0, sensitivity: .init()) } == nil)
        #expect(withBytes([0, 0, 0, 0]) { RawSensorRecord.decode($0, sensitivity: .init()) } == nil)
        #expect(withBytes([1, 2]) { RawSensorRecord.decode($0, sensitivity: .init()) } == nil)
    }
}

@Suite struct V2FrameTests {
    @Test(arguments: [
        ([UInt8(1), 2, 0, 0, 6], TapInput.tap(TapPacket(fingers: 6))),
        ([1, 3, 0, 0, 105], .unifiedAirGesture(.pinchIndex)),
        ([2, 0, 0, 0, 1], .standby(true)),
        ([3, 0, 0, 0, 1, 1], .configAnswer(item: 0, payload: [1, 1])),
        ([0, 0, 0, 0, 0, 5, 0, 251, 255, 0, 0, 0, 0, 1], .mouse(MousePacket(vx: 5, vy: -5, isRealMovement: true))),
    ]) func decode(_ bytes: [UInt8], _ expected: TapInput) {
        #expect(withBytes(bytes) { V2Frame.decode($0, sensitivity: .init()) } == expected)
    }
    @Test func malformedFrames() {
        for b: [UInt8] in [[], [1, 2, 0], [1, 2, 0, 0], [1, 2, 0, 0, 40], [9, 9, 0, 0, 1], [0, 0, 0, 0, 1, 2]] {
            #expect(withBytes(b) { V2Frame.decode($0, sensitivity: .init()) } == nil, "\(b)")
        }
    }
}

@Suite struct EncoderTests {
    @Test(arguments: [
        (InputMode.text, [UInt8(3), 0x0C, 0, 0]), (.controller, [3, 0x0C, 0, 1]),
        (.controllerWithMouseHID, [3, 0x0C, 0, 3]), (.controllerWithFullHID, [3, 0x0C, 0, 5]),
        (.raw(RawSensitivity(fingerAccelerometer: 2, imuGyro: 5, imuAccelerometer: 1)), [3, 0x0C, 0, 0x0A, 2, 5, 1]),
    ]) func inputModes(_ mode: InputMode, _ bytes: [UInt8]) {
        #expect(mode.command == bytes)
        #expect(InputMode(parsing: mode.description) == mode)
    }
    @Test func xrStatesAndParsing() {
        #expect(XRState.airMouse.command == [3, 0x0D, 0, 1])
        #expect(XRState.tapping.command == [3, 0x0D, 0, 2])
        #expect(XRState.userControl.command == [3, 0x0D, 0, 3])
        #expect(InputMode(parsing: "raw:1,9,1") == nil && InputMode(parsing: "bogus") == nil)
        #expect(InputMode(parsing: "raw") == .raw(RawSensitivity()))
    }
    @Test func hapticsClampRoundPadAndTruncate() {
        #expect(TapCommand.haptic([100, 200]) == [0, 2, 10, 20] + Array(repeating: 0, count: 16))
        #expect(TapCommand.haptic([1, 5000, 254]) == [0, 2, 1, 255, 25] + Array(repeating: 0, count: 15))
        let long = TapCommand.haptic(Array(repeating: 100, count: 25))
        #expect(long.count == 20 && long[2...].allSatisfy { $0 == 10 })
        #expect(TapCommand.v2Haptic([300]) == [1, 2, 3, 0, 0, 2, 30] + Array(repeating: 0, count: 17))
    }
    @Test func otherCommands() {
        #expect(TapCommand.airGestureStateRequest == [0x0D] + Array(repeating: 0, count: 19))
        #expect(TapCommand.v2Keepalive == [2, 0, 0, 0])
        #expect(TapCommand.v2SetFeature(.modelDetection, enabled: true) == [0, 0, 0, 0, 1, 1])
        #expect(TapCommand.v2GetFeature(.imuMotion) == [0, 1, 0, 0, 2])
        #expect(TapCommand.v2SetModel(.airGesture) == [1, 0, 1, 0, 1])
        #expect(TapCommand.v2SetOpMode(.stream) == [1, 0, 0, 0, 2])
        #expect(TapCommand.v2SetIMUSensitivity(gyro: 3, accelerometer: 2) == [1, 1, 2, 0, 3, 2])
        #expect(TapCommand.v2SetStandby(true) == [3, 4, 0, 0, 1])
        #expect(TapCommand.v2Commands(for: .controller) == [[0, 0, 0, 0, 1, 1], [1, 0, 1, 0, 0], [1, 0, 0, 0, 0]])
    }
    @Test(arguments: [
        ("3.2.0", 30200), ("2.3.27", 20327), ("4.0.0\0", 40000), (" 1.6.15\n", 10615), ("3.3", 30300), ("3", 30000),
    ]) func versions(_ s: String, _ v: Int) {
        #expect(VersionNumber.parse(s) == v)
    }
    @Test func badVersions() {
        for s in ["", "Unavailable", "1.2.3.4", "1.100.0", "a.b.c", "1..2"] { #expect(VersionNumber.parse(s) == nil, "\(s)") }
        #expect(VersionNumber.string(30409) == "3.4.9")
    }
}
