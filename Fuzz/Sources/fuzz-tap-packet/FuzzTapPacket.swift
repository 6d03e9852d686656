import FuzzCheck
import TapBLE

/// Tap-data notifications (`c3ff0005`, tap-protocol.md §2.1) through `TapPacket.decode`.
///
/// Beyond "no crash": a packet decodes exactly when byte 0 is a 5-bit mask, every field it
/// carries re-encodes to the bytes it came from, and the keyboard state stays in its documented
/// ranges (repeat count 1...3).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let b = bytes(data, size)
    guard let p = TapPacket.decode(b) else {
        check(b.isEmpty || b[0] > 31, "rejected a valid tap packet of \(b.count) bytes")
        return 0
    }
    check(!b.isEmpty && b[0] <= 31 && p.fingers == b[0], "fingers \(p.fingers) from byte \(b.first ?? 0)")
    check((p.interval != nil) == (b.count >= 3), "interval presence for \(b.count) bytes")
    if let i = p.interval { check(UInt8(i & 0xFF) == b[1] && UInt8(i >> 8) == b[2], "interval \(i) does not re-encode") }
    check((p.keyboardState != nil) == (b.count >= 4), "keyboard state presence for \(b.count) bytes")
    if let s = p.keyboardState {
        check(s.raw == b[3], "raw state byte")
        check((1...3).contains(s.repeatCount), "repeat count \(s.repeatCount)")
        check(s.switchOn == ((b[3] >> 2) & 3 != 0), "switch bit")
        // Re-encoding the decoded fields gives back the low six bits, except the undefined
        // shift value 3 (read as locked) and the illegal repeat value 2 (read as triple).
        let shiftBits = b[3] & 3, repeatBits = (b[3] >> 4) & 3
        if shiftBits != 3 { check(s.shift.rawValue == shiftBits, "shift \(s.shift) from bits \(shiftBits)") }
        if repeatBits != 2 { check(s.repeatCount == [1, 2, 0, 3][Int(repeatBits)], "repeat \(s.repeatCount) from bits \(repeatBits)") }
    }
    // Decoding is a pure function of the bytes.
    check(TapPacket.decode(b) == p, "decode is not deterministic")
    return 0
}
