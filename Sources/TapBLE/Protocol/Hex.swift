// Hex dumps of packets and writes, for the logs.

/// Two lower-case hex digits.
func hex(_ b: UInt8) -> String {
    let digits: [Character] = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
}

/// Bytes as `"03 0c 00 01"`.
func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { hex($0) }.joined(separator: " ") }
