import FuzzCheck
import TapBLE

/// DIS version strings (§4.5) through `VersionNumber.parse(bytes:)`, invalid UTF-8 included.
///
/// Checked: a parsed version is within 0...999999 (three components of 0-99), its string form
/// parses back to the same number, and parsing the decoded string gives the same answer as
/// parsing the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let raw = Array(bytes(data, size))
    let v = VersionNumber.parse(bytes: raw)
    check(v == VersionNumber.parse(String(decoding: raw, as: UTF8.self)), "bytes and string parse differently")
    guard let v else { return 0 }
    check((0...999_999).contains(v), "version \(v) out of range")
    let text = VersionNumber.string(v)
    check(VersionNumber.parse(text) == v, "\(v) prints as \(text), which does not parse back")
    check(text.split(separator: ".").count == 3, "\(text) is not M.m.b")
    return 0
}
