import FuzzCheck
import TapBLE

/// Mouse-data notifications (`c3ff0006`, §2.2) through `MousePacket.decode`.
///
/// A packet decodes exactly when it has at least 10 bytes; its fields re-encode (little-endian)
/// to the bytes they came from; orientation is present exactly from 16 bytes on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let b = bytes(data, size)
    guard let p = MousePacket.decode(b) else {
        check(b.count < 10, "rejected a mouse packet of \(b.count) bytes")
        return 0
    }
    check(b.count >= 10, "accepted a mouse packet of \(b.count) bytes")
    var encoded: [UInt8] = [p.messageType]
    encoded += le(UInt16(bitPattern: p.vx)) + le(UInt16(bitPattern: p.vy))
    encoded += le(UInt16(truncatingIfNeeded: p.dt)) + le(UInt16(truncatingIfNeeded: p.dt >> 16))
    check(Array(b[0..<9]) == encoded, "fields do not re-encode: \(Array(b[0..<9])) vs \(encoded)")
    check(p.isRealMovement == (b[9] == 1), "proximity byte \(b[9]) read as \(p.isRealMovement)")
    check((p.orientation != nil) == (b.count >= 16), "orientation presence for \(b.count) bytes")
    if let o = p.orientation {
        let e = le(UInt16(bitPattern: o.roll)) + le(UInt16(bitPattern: o.pitch)) + le(UInt16(bitPattern: o.yaw))
        check(Array(b[10..<16]) == e, "orientation does not re-encode")
    }
    return 0
}

func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
