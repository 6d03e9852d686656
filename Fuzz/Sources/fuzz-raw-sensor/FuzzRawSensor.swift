import FuzzCheck
import TapBLE

/// Raw-sensor notifications (NUS TX `6e400003`, §2.4) through `RawSensorRecord.decode`.
///
/// The first three input bytes are the sensitivity indices (out-of-range ones included, which
/// the scales clamp); the rest is the notification. Checked: every record has 6 (IMU) or 15
/// (finger) samples, finite scaled values, a 31-bit timestamp, and the records re-encode to a
/// prefix of the notification that is followed by nothing or by a zero meta word.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    guard input.count >= 3 else { return 0 }
    let sensitivity = RawSensitivity(fingerAccelerometer: input[0], imuGyro: input[1], imuAccelerometer: input[2])
    let b = UnsafeRawBufferPointer(rebasing: input[3...])
    guard let records = RawSensorRecord.decode(b, sensitivity: sensitivity) else { return 0 }
    check(!records.isEmpty, "decoded an empty record list instead of nil")
    var encoded: [UInt8] = []
    for r in records {
        check(r.raw.count == (r.kind == .imu ? 6 : 15), "\(r.kind) record with \(r.raw.count) samples")
        check(r.values.count == r.raw.count, "values/raw count mismatch")
        check(r.values.allSatisfy(\.isFinite), "non-finite scaled value")
        check(r.timestamp < 0x8000_0000, "timestamp \(r.timestamp) over 31 bits")
        let meta = r.timestamp | (r.kind == .fingers ? 0x8000_0000 : 0)
        check(meta != 0, "a record with a zero meta word")
        encoded += (0..<4).map { UInt8(truncatingIfNeeded: meta >> (8 * $0)) }
        for s in r.raw { encoded += [UInt8(truncatingIfNeeded: s), UInt8(truncatingIfNeeded: s >> 8)] }
        _ = r.csvFields()
        _ = r.csvFields(rawValues: true)
    }
    check(encoded.count <= b.count && Array(b[0..<encoded.count]) == encoded, "records do not re-encode")
    let rest = b.count - encoded.count
    // Decoding stops at the end, at a zero meta word, or with fewer than 4 bytes left.
    check(rest < 4 || (b[encoded.count] | b[encoded.count + 1] | b[encoded.count + 2] | b[encoded.count + 3]) == 0,
          "stopped early with \(rest) bytes left")
    return 0
}
