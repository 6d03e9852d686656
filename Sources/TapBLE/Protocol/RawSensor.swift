/// Sensitivity indices for raw sensor mode, in the firmware's byte order (§2.4, §3.1).
///
/// Index 0 is the firmware default (iOS/Android default to 0; the Python SDK's enums start at 1).
public struct RawSensitivity: Sendable, Hashable {
    /// Finger accelerometers, 0…4.
    public var fingerAccelerometer: UInt8
    /// Thumb IMU gyroscope, 0…5.
    public var imuGyro: UInt8
    /// Thumb IMU accelerometer, 0…4.
    public var imuAccelerometer: UInt8

    public init(fingerAccelerometer: UInt8 = 0, imuGyro: UInt8 = 0, imuAccelerometer: UInt8 = 0) {
        self.fingerAccelerometer = fingerAccelerometer
        self.imuGyro = imuGyro
        self.imuAccelerometer = imuAccelerometer
    }

    /// Whether every index is within the documented range.
    public var isValid: Bool { fingerAccelerometer <= 4 && imuGyro <= 5 && imuAccelerometer <= 4 }

    // Scale tables (Confluence "Raw Sensors Mode", iOS TAPRawSensorSensitivity, Android SensorSensitivity).
    static let fingerMilliG: [Double] = [31.25, 3.91, 7.81, 15.62, 31.25]
    static let gyroMilliDPS: [Double] = [17.5, 4.375, 8.75, 17.5, 35, 70]
    static let imuMilliG: [Double] = [0.122, 0.061, 0.122, 0.244, 0.488]

    /// g per LSB of a finger accelerometer.
    public var fingerScale: Double { Self.fingerMilliG[Int(min(fingerAccelerometer, 4))] / 1000 }
    /// degrees/s per LSB of the gyroscope.
    public var gyroScale: Double { Self.gyroMilliDPS[Int(min(imuGyro, 5))] / 1000 }
    /// g per LSB of the IMU accelerometer.
    public var imuAccelerometerScale: Double { Self.imuMilliG[Int(min(imuAccelerometer, 4))] / 1000 }
}

/// One record of the raw sensor stream (NUS TX `6e400003`, or a v2 raw-IMU frame).
public struct RawSensorRecord: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Thumb IMU: `[gyroX, gyroY, gyroZ, accX, accY, accZ]`; values in °/s then g.
        case imu
        /// Finger accelerometers: thumb, index, middle, ring, pinky, each x, y, z; values in g.
        case fingers
    }

    public var kind: Kind
    /// Device clock in milliseconds (31 bits, not wall-synchronised).
    public var timestamp: UInt32
    /// The samples as sent (6 or 15).
    public var raw: [Int16]
    /// The samples scaled by the sensitivity in force when decoded.
    public var values: [Double]

    public init(kind: Kind, timestamp: UInt32, raw: [Int16], sensitivity: RawSensitivity) {
        self.kind = kind
        self.timestamp = timestamp
        self.raw = raw
        switch kind {
        case .imu:
            let g = sensitivity.gyroScale, a = sensitivity.imuAccelerometerScale
            values = raw.enumerated().map { Double($0.element) * ($0.offset < 3 ? g : a) }
        case .fingers:
            let f = sensitivity.fingerScale
            values = raw.map { Double($0) * f }
        }
    }

    /// Decodes concatenated records until a zero meta word or the end of the buffer.
    ///
    /// A record that ends exactly at the buffer's end is kept (the iOS/Android parsers drop
    /// it; web/Python keep it). Returns nil (malformed) when a record is cut short or no
    /// record is present at all.
    public static func decode(_ b: UnsafeRawBufferPointer, sensitivity: RawSensitivity) -> [RawSensorRecord]? {
        var out: [RawSensorRecord] = []
        var i = 0
        while i + 4 <= b.count {
            let meta = b.uint32(at: i)
            if meta == 0 { break }
            let isFingers = meta & 0x8000_0000 != 0
            let n = isFingers ? 15 : 6
            let start = i + 4
            guard start + 2 * n <= b.count else { return nil }
            var samples = [Int16](repeating: 0, count: n)
            for k in 0..<n { samples[k] = b.int16(at: start + 2 * k) }
            out.append(RawSensorRecord(kind: isFingers ? .fingers : .imu, timestamp: meta & 0x7FFF_FFFF,
                                       raw: samples, sensitivity: sensitivity))
            i = start + 2 * n
        }
        return out.isEmpty ? nil : out
    }
}
