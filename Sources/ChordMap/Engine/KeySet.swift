/// A set of key and button codes as a fixed bitmap over every code the kernel knows
/// (`KEY_CNT` = 768): no allocation, value semantics, set algebra in a dozen word operations.
///
/// It is the type of ``Frame/pressed``, built and diffed once or twice per packet on the
/// daemon's hottest path, where a hashed `Set` cost an allocation per frame. Iteration is in
/// ascending code order. Codes at or above ``capacity`` cannot be members: inserting one does
/// nothing (no device can report them, and the keymap loader only produces kernel codes).
public struct KeySet: SetAlgebra, Hashable, Sendable, Sequence, CustomStringConvertible {
    public typealias Element = KeyCode
    /// `KEY_CNT`: every key and button code is below it.
    @inlinable public static var capacity: Int { 768 }
    @usableFromInline var words = InlineArray<12, UInt64>(repeating: 0)

    @inlinable public init() {}

    @inlinable public init(arrayLiteral codes: KeyCode...) {
        for c in codes { insert(c) }
    }

    @inlinable public var isEmpty: Bool {
        for i in words.indices where words[i] != 0 { return false }
        return true
    }

    @inlinable public var count: Int {
        var n = 0
        for i in words.indices { n += words[i].nonzeroBitCount }
        return n
    }

    @inlinable public func contains(_ code: KeyCode) -> Bool {
        Int(code.rawValue) < Self.capacity && words[Int(code.rawValue) >> 6] & Self.bit(code) != 0
    }

    @inlinable @discardableResult
    public mutating func insert(_ code: KeyCode) -> (inserted: Bool, memberAfterInsert: KeyCode) {
        guard Int(code.rawValue) < Self.capacity else { return (false, code) }
        let had = contains(code)
        words[Int(code.rawValue) >> 6] |= Self.bit(code)
        return (!had, code)
    }

    @inlinable @discardableResult
    public mutating func remove(_ code: KeyCode) -> KeyCode? {
        guard contains(code) else { return nil }
        words[Int(code.rawValue) >> 6] &= ~Self.bit(code)
        return code
    }

    @inlinable @discardableResult
    public mutating func update(with code: KeyCode) -> KeyCode? {
        insert(code).inserted ? nil : code
    }

    @inlinable public func union(_ other: KeySet) -> KeySet { combined(other) { $0 | $1 } }
    @inlinable public func intersection(_ other: KeySet) -> KeySet { combined(other) { $0 & $1 } }
    @inlinable public func symmetricDifference(_ other: KeySet) -> KeySet { combined(other) { $0 ^ $1 } }
    @inlinable public func subtracting(_ other: KeySet) -> KeySet { combined(other) { $0 & ~$1 } }
    /// The set with every code of `codes` added (modifier lists are arrays).
    @inlinable public func union<Codes: Sequence<KeyCode>>(_ codes: Codes) -> KeySet {
        var out = self
        for c in codes { out.insert(c) }
        return out
    }
    @inlinable public mutating func formUnion(_ other: KeySet) { self = union(other) }
    @inlinable public mutating func formIntersection(_ other: KeySet) { self = intersection(other) }
    @inlinable public mutating func formSymmetricDifference(_ other: KeySet) { self = symmetricDifference(other) }
    @inlinable public mutating func subtract(_ other: KeySet) { self = subtracting(other) }
    @inlinable public func isDisjoint(with other: KeySet) -> Bool { intersection(other).isEmpty }

    @inlinable public static func == (a: KeySet, b: KeySet) -> Bool {
        for i in a.words.indices where a.words[i] != b.words[i] { return false }
        return true
    }

    @inlinable public func hash(into hasher: inout Hasher) {
        for i in words.indices { hasher.combine(words[i]) }
    }

    /// `{KEY_LEFTSHIFT, KEY_A}`: kernel names in code order.
    public var description: String { "{" + map(\.name).joined(separator: ", ") + "}" }

    public struct Iterator: IteratorProtocol {
        @usableFromInline let set: KeySet
        @usableFromInline var word = 0
        @usableFromInline var rest: UInt64

        @inlinable init(set: KeySet, rest: UInt64) { self.set = set; self.rest = rest }

        @inlinable public mutating func next() -> KeyCode? {
            while rest == 0 {
                word += 1
                guard word < set.words.count else { return nil }
                rest = set.words[word]
            }
            let bit = rest.trailingZeroBitCount
            rest &= rest - 1
            return KeyCode(rawValue: UInt16(word << 6 + bit))
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(set: self, rest: words[0]) }
    @inlinable public var underestimatedCount: Int { count }

    @inlinable func combined(_ other: KeySet, _ op: (UInt64, UInt64) -> UInt64) -> KeySet {
        var out = KeySet()
        for i in words.indices { out.words[i] = op(words[i], other.words[i]) }
        return out
    }

    @inlinable static func bit(_ code: KeyCode) -> UInt64 { 1 << UInt64(code.rawValue & 63) }
}
