/// A set of key and button codes below `KEY_CNT` (768) as a fixed bitmap: no allocation, and
/// set operations that are a few word-wide instructions.
///
/// The frame writer's working set: it diffs what the engine wants held against what it last
/// wrote on every frame, the daemon's hottest path. Iteration is in ascending code order,
/// which is the order events are written in.
struct KeyBits: Equatable, Sequence {
    /// `KEY_CNT`: every key and button code the kernel knows is below it.
    static let capacity = 768
    private var words = InlineArray<12, UInt64>(repeating: 0)

    init() {}

    init<S: Sequence>(_ codes: S) where S.Element == UInt16 {
        for c in codes where Int(c) < Self.capacity { insert(c) }
    }

    /// All codes in `range` (clamped to the capacity).
    init(range: Range<UInt16>) {
        for c in range where Int(c) < Self.capacity { insert(c) }
    }

    var isEmpty: Bool {
        for i in words.indices where words[i] != 0 { return false }
        return true
    }

    func contains(_ code: UInt16) -> Bool {
        Int(code) < Self.capacity && words[Int(code) >> 6] & (1 << UInt64(code & 63)) != 0
    }

    /// Inserts `code`; codes at or above the capacity are ignored.
    mutating func insert(_ code: UInt16) {
        guard Int(code) < Self.capacity else { return }
        words[Int(code) >> 6] |= 1 << UInt64(code & 63)
    }

    mutating func removeAll() { self = KeyBits() }

    func union(_ other: KeyBits) -> KeyBits { combined(with: other) { $0 | $1 } }
    func intersection(_ other: KeyBits) -> KeyBits { combined(with: other) { $0 & $1 } }
    func subtracting(_ other: KeyBits) -> KeyBits { combined(with: other) { $0 & ~$1 } }

    private func combined(with other: KeyBits, _ op: (UInt64, UInt64) -> UInt64) -> KeyBits {
        var out = KeyBits()
        for i in words.indices { out.words[i] = op(words[i], other.words[i]) }
        return out
    }

    static func == (a: KeyBits, b: KeyBits) -> Bool {
        for i in a.words.indices where a.words[i] != b.words[i] { return false }
        return true
    }

    struct Iterator: IteratorProtocol {
        fileprivate let bits: KeyBits
        fileprivate var word = 0
        fileprivate var rest: UInt64

        mutating func next() -> UInt16? {
            while rest == 0 {
                word += 1
                guard word < bits.words.count else { return nil }
                rest = bits.words[word]
            }
            let bit = rest.trailingZeroBitCount
            rest &= rest - 1
            return UInt16(word << 6 + bit)
        }
    }

    func makeIterator() -> Iterator { Iterator(bits: self, rest: words[0]) }
}
