import FuzzCheck
import TapBLE

/// v2 frames (`c3ff000e`, §2.6) through `V2Frame.decode`.
///
/// Input byte 0 picks the raw sensitivity for IMU frames (low bits per field); the rest is the
/// frame. Checked: frames under 4 bytes are malformed; what a frame decodes to matches its
/// command bytes and payload (mouse and raw payloads decode the same on their own; taps keep a
/// 5-bit mask; config answers carry the payload unchanged).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    guard input.count >= 1 else { return 0 }
    let s = input[0]
    let sensitivity = RawSensitivity(fingerAccelerometer: s & 7, imuGyro: (s >> 3) & 7, imuAccelerometer: s >> 6)
    let b = UnsafeRawBufferPointer(rebasing: input[1...])
    let decoded = V2Frame.decode(b, sensitivity: sensitivity)
    guard b.count >= 4 else {
        check(decoded == nil, "a \(b.count)-byte frame decoded")
        return 0
    }
    let payload = UnsafeRawBufferPointer(rebasing: b[4...])
    switch decoded {
    case .mouse(let m)?:
        check(b[0] == 0 && b[1] == 0 && MousePacket.decode(payload) == m, "mouse frame mismatch")
    case .raw(let r)?:
        check(b[0] == 0 && b[1] == 1 && RawSensorRecord.decode(payload, sensitivity: sensitivity) == r, "raw frame mismatch")
    case .tap(let t)?:
        check(b[0] == 1 && b[1] == 2 && t.fingers <= 31 && t.fingers == payload[0], "tap frame mismatch")
    case .unifiedAirGesture(let g)?:
        check(b[0] == 1 && b[1] == 3 && g.rawValue == payload[0], "air gesture frame mismatch")
    case .standby(let on)?:
        check(b[0] == 2 && on == (payload[0] == 1), "standby frame mismatch")
    case .configAnswer(let item, let p)?:
        check(b[0] == 3 && item == b[1] && p == Array(payload), "config answer mismatch")
    case .airGesture?, .airGestureState?, .handState?:
        check(false, "v2 frame decoded to a v1-only input")
    case nil:
        // Only unknown commands or payloads that are short or malformed for their command.
        let known = (b[0] == 0 && b[1] <= 1) || (b[0] == 1 && (b[1] == 2 || b[1] == 3)) || b[0] == 2 || b[0] == 3
        if known && b[0] != 0 {
            check(b[0] != 3, "a config answer was dropped")
            check(payload.isEmpty || (b[0] == 1 && b[1] == 2 && payload[0] > 31), "a valid frame was dropped: \(Array(b))")
        }
    }
    return 0
}
