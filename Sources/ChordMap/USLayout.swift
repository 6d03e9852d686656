/// The US QWERTY layout: which key (and whether Shift) types a printable ASCII character, and back.
///
/// Used to compile `text` actions and single-character key spellings (`"?"` is Shift+slash), and by
/// the simulator's `--text` mode to turn frames back into characters.
public enum USLayout {
    /// A key and whether Shift must be held to type a character.
    public struct Stroke: Equatable, Sendable {
        public var key: KeyCode
        public var shift: Bool
    }

    /// The stroke that types `character`, or nil for characters a US keyboard cannot type.
    /// Newline is Enter and tab is Tab.
    public static func stroke(for character: Character) -> Stroke? { table[character] }

    /// The character `key` types with or without Shift; nil for non-printing keys.
    public static func character(for key: KeyCode, shift: Bool) -> Character? {
        reverse[Stroke(key: key, shift: shift)]
    }

    private static let rows: [(unshifted: String, shifted: String, codes: [UInt16])] = [
        ("`1234567890-=", "~!@#$%^&*()_+", [41, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
        ("qwertyuiop[]\\", "QWERTYUIOP{}|", [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 43]),
        ("asdfghjkl;'", "ASDFGHJKL:\"", [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]),
        ("zxcvbnm,./", "ZXCVBNM<>?", [44, 45, 46, 47, 48, 49, 50, 51, 52, 53]),
    ]

    private static let table: [Character: Stroke] = {
        var map: [Character: Stroke] = [" ": Stroke(key: .space, shift: false),
                                        "\n": Stroke(key: .enter, shift: false),
                                        "\t": Stroke(key: .tab, shift: false)]
        for row in rows {
            for (i, code) in row.codes.enumerated() {
                map[Array(row.unshifted)[i]] = Stroke(key: KeyCode(rawValue: code), shift: false)
                map[Array(row.shifted)[i]] = Stroke(key: KeyCode(rawValue: code), shift: true)
            }
        }
        return map
    }()

    private static let reverse: [Stroke: Character] = {
        var map: [Stroke: Character] = [:]
        for (c, s) in table { map[s] = c }
        map[Stroke(key: .space, shift: true)] = " "
        return map
    }()
}

extension USLayout.Stroke: Hashable {}
