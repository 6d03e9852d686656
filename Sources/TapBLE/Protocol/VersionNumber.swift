/// Firmware/hardware revision strings as integers (§4.5): `"M.m.b"` -> `M*10000 + m*100 + b`.
public enum VersionNumber {
    /// Parses 1 to 3 dot-separated components, each 0…99 (Android's rule, the most liberal);
    /// NULs and whitespace around the string are ignored. Nil for anything else.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.filter { $0 != "\0" }.trimmingASCIIWhitespace()
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var value = 0
        for i in 0..<3 {
            var c = 0
            if i < parts.count {
                guard let n = Int(parts[i]), (0...99).contains(n) else { return nil }
                c = n
            }
            value = value * 100 + c
        }
        return value
    }

    /// Parses a DIS string characteristic value.
    public static func parse(bytes: [UInt8]) -> Int? { parse(String(decoding: bytes, as: UTF8.self)) }

    /// The string form of a version integer.
    public static func string(_ v: Int) -> String { "\(v / 10000).\(v / 100 % 100).\(v % 100)" }

    /// HW revision at or above 4.0.0 means a TapXR (Android `FIRST_TAP_XR_HW_VERSION`).
    public static let firstTapXRHardware = 40000
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        let ws: Set<Character> = [" ", "\t", "\n", "\r"]
        var s = Substring(self)
        while let f = s.first, ws.contains(f) { s = s.dropFirst() }
        while let l = s.last, ws.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
