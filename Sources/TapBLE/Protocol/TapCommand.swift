/// Encoders for the other host-to-device writes (§3.3–3.7).
public enum TapCommand {
    /// Most durations a haptic sequence can carry.
    public static let maxHapticDurations = 18

    /// Haptic sequence for UI commands `c3ff0009`: `00 02 d0 … d17`, alternating on/off
    /// durations in 10 ms units.
    ///
    /// Each duration is clamped to 10…2550 ms and rounded to the nearest 10 ms; more than 18
    /// are truncated. The packet is zero-padded to 20 bytes, as iOS, Android and Windows do
    /// (Python/web send 2+n bytes; a 0 entry ends the sequence either way).
    public static func haptic(_ durations: [Int]) -> [UInt8] {
        var out: [UInt8] = [0x00, 0x02]
        out.reserveCapacity(20)
        for ms in durations.prefix(maxHapticDurations) { out.append(hapticUnit(ms)) }
        while out.count < 20 { out.append(0) }
        return out
    }

    static func hapticUnit(_ ms: Int) -> UInt8 { UInt8((min(max(ms, 10), 2550) + 5) / 10) }

    /// Air-gesture state request for `c3ff000a`: `0D` padded to 20 bytes (iOS, Windows);
    /// the answer is a `14 <state>` notification.
    public static let airGestureStateRequest: [UInt8] = [0x0D] + [UInt8](repeating: 0, count: 19)

    // MARK: v2 (`c3ff000f`, write with response)

    /// Sent every 10 s to keep a v2 device streaming.
    public static let v2Keepalive: [UInt8] = [0x02, 0x00, 0x00, 0x00]

    /// v2 features (`DeviceFeatures`).
    public enum V2Feature: UInt8, Sendable { case rawIMU = 0, modelDetection = 1, imuMotion = 2, triggerDetections = 3, standbyGesture = 4 }
    /// v2 vision models.
    public enum V2Model: UInt8, Sendable { case tapping = 0, airGesture = 1 }
    /// v2 vision operating modes.
    public enum V2OpMode: UInt8, Sendable { case trigger = 0, streamOnTrigger = 1, stream = 2 }

    public static func v2SetFeature(_ f: V2Feature, enabled: Bool) -> [UInt8] { [0, 0, 0, 0, f.rawValue, enabled ? 1 : 0] }
    public static func v2GetFeature(_ f: V2Feature) -> [UInt8] { [0, 1, 0, 0, f.rawValue] }
    public static func v2SetOpMode(_ m: V2OpMode) -> [UInt8] { [1, 0, 0, 0, m.rawValue] }
    public static func v2SetModel(_ m: V2Model) -> [UInt8] { [1, 0, 1, 0, m.rawValue] }
    /// Note the order: gyro first.
    public static func v2SetIMUSensitivity(gyro: UInt8, accelerometer: UInt8) -> [UInt8] { [1, 1, 2, 0, gyro, accelerometer] }
    public static func v2GetStandby() -> [UInt8] { [3, 3, 0, 0] }
    public static func v2SetStandby(_ on: Bool) -> [UInt8] { [3, 4, 0, 0, on ? 1 : 0] }

    /// v2 haptic: `01 02 03 00 00 02 d0..d17`, padded to 18 slots (Python).
    public static func v2Haptic(_ durations: [Int]) -> [UInt8] {
        var out: [UInt8] = [1, 2, 3, 0, 0, 2]
        for ms in durations.prefix(maxHapticDurations) { out.append(hapticUnit(ms)) }
        while out.count < 6 + maxHapticDurations { out.append(0) }
        return out
    }

    /// The v2 writes that put a device into the equivalent of `mode` (Python README quick
    /// start: taps = model detection + tapping model + trigger op mode).
    public static func v2Commands(for mode: InputMode) -> [[UInt8]] {
        switch mode {
        case .text:
            return [v2SetFeature(.modelDetection, enabled: false), v2SetFeature(.imuMotion, enabled: false),
                    v2SetFeature(.rawIMU, enabled: false)]
        case .controller, .controllerWithFullHID:
            return [v2SetFeature(.modelDetection, enabled: true), v2SetModel(.tapping), v2SetOpMode(.trigger)]
        case .controllerWithMouseHID:
            return [v2SetFeature(.modelDetection, enabled: true), v2SetModel(.tapping), v2SetOpMode(.trigger),
                    v2SetFeature(.imuMotion, enabled: true)]
        case .raw(let s):
            return [v2SetIMUSensitivity(gyro: s.imuGyro, accelerometer: s.imuAccelerometer), v2SetFeature(.rawIMU, enabled: true)]
        }
    }
}
