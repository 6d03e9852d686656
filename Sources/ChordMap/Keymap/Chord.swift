/// A five-finger chord as the TAP device reports it: bit 0 thumb, bit 1 index, bit 2 middle,
/// bit 3 ring, bit 4 pinky.
///
/// Only 1...31 exist; 0 ("no fingers") is not a chord, so the failable initialiser rejects it.
/// Keymaps spell chords three ways, all accepted by ``init(spelling:)``:
///
/// ```swift
/// Chord(spelling: "x.x..")          // thumb-first pattern: thumb + middle
/// Chord(spelling: "thumb+middle")   // finger names
/// Chord(spelling: "5")              // the decimal tapcode
/// ```
public struct Chord: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    /// Fails unless `rawValue` is in 1...31.
    public init?(rawValue: UInt8) {
        guard (1...31).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public static let thumb = Chord(rawValue: 1)!
    public static let index = Chord(rawValue: 2)!
    public static let middle = Chord(rawValue: 4)!
    public static let ring = Chord(rawValue: 8)!
    public static let pinky = Chord(rawValue: 16)!
    /// All five fingers (TapCode Space).
    public static let all = Chord(rawValue: 31)!

    /// Finger names in bit order; also the words accepted in `"thumb+middle"` spellings.
    public static let fingerNames = ["thumb", "index", "middle", "ring", "pinky"]

    /// Parses a pattern (`"x.x.."`, thumb first; `x`/`o`/`*` down, `.`/`-`/`_` up), finger names
    /// joined by `+`, or a decimal. Returns nil for anything else, including 0 and values > 31.
    public init?(spelling: String) {
        // `UInt8(exactly:)`: a decimal like "256" must be rejected, not trap.
        guard let value = Chord.parse(spelling), let byte = UInt8(exactly: value), let chord = Chord(rawValue: byte) else { return nil }
        self = chord
    }

    /// Why a spelling is not a chord, for diagnostics; nil when it is one.
    static func problem(with spelling: String) -> String? {
        let s = spelling.trimmingSpaces
        if s.isEmpty { return "an empty chord" }
        if s.allSatisfy(\.isASCIIDigit) {
            guard let v = Int(s), v >= 1, v <= 31 else {
                return "chord \(s) is out of range (chords are 1 to 31: bit 0 thumb ... bit 4 pinky)"
            }
            return nil
        }
        if s.count == 5 && s.allSatisfy({ Chord.downMarks.contains($0) || Chord.upMarks.contains($0) }) {
            return Chord.parse(s) == 0 ? "the pattern \"\(s)\" has no finger down (chord 0 does not exist)" : nil
        }
        if s.contains("+") || Chord.fingerNames.contains(s.lowercased()) {
            for part in s.split(separator: "+", omittingEmptySubsequences: false) {
                let name = part.trimmingSpaces.lowercased()
                if !Chord.fingerNames.contains(name) { return "\"\(name)\" is not a finger name" }
            }
            return Chord.parse(s) == nil ? "a finger is named twice" : nil
        }
        return "not a chord: write five x/. marks thumb first (\"x.x..\"), finger names (\"thumb+middle\") or a number 1-31"
    }

    private static let downMarks: Set<Character> = ["x", "X", "o", "O", "*"]
    private static let upMarks: Set<Character> = [".", "-", "_"]

    private static func parse(_ spelling: String) -> Int? {
        let s = spelling.trimmingSpaces
        if !s.isEmpty, s.allSatisfy(\.isASCIIDigit) { return Int(s) }
        if s.count == 5 && s.allSatisfy({ downMarks.contains($0) || upMarks.contains($0) }) {
            var value = 0
            for (bit, c) in s.enumerated() where downMarks.contains(c) { value |= 1 << bit }
            return value
        }
        var value = 0
        for part in s.split(separator: "+", omittingEmptySubsequences: false) {
            guard let bit = fingerNames.firstIndex(of: part.trimmingSpaces.lowercased()) else { return nil }
            if value & (1 << bit) != 0 { return nil }
            value |= 1 << bit
        }
        return value
    }

    /// Thumb-first pattern, e.g. `"x.x.."`.
    public var pattern: String {
        String((0..<5).map { rawValue & (1 << $0) != 0 ? "x" : "." })
    }

    public var description: String { pattern }

    public static func < (lhs: Chord, rhs: Chord) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (no Foundation needed).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}
