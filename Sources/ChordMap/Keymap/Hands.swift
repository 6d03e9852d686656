/// Which hand of a pair a device is worn on.
public enum Hand: String, Sendable, CaseIterable, Comparable {
    case left, right

    public static func < (a: Hand, b: Hand) -> Bool { a == .left && b == .right }
}

/// `[hands]`: the two devices that act as one keyboard, each named by its Bluetooth name or its
/// address (compared case-insensitively). The daemon may also assign roles itself (from
/// `tap-uinput pair --role`); ``Engine/setRole(_:for:)`` takes those.
public struct HandRoles: Sendable, Equatable {
    public var left: String?
    public var right: String?

    public init(left: String? = nil, right: String? = nil) {
        self.left = left
        self.right = right
    }

    public var isEmpty: Bool { left == nil && right == nil }

    /// The role of a device with this address or name, if the keymap names it. Asked for every
    /// event of a device outside the pair, so ASCII names compare without allocating.
    public func role(address: String, name: String? = nil) -> Hand? {
        func names(_ s: String?) -> Bool {
            guard let s else { return false }
            return Self.same(s, address) || name.map { Self.same($0, s) } == true
        }
        return names(left) ? .left : names(right) ? .right : nil
    }

    /// Case-insensitive equality: byte by byte for ASCII, through `lowercased()` otherwise.
    static func same(_ a: String, _ b: String) -> Bool {
        var ia = a.utf8.makeIterator(), ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x >= 0x80 || y >= 0x80 { return a.lowercased() == b.lowercased() }
                let lx = (0x41...0x5A).contains(x) ? x | 0x20 : x, ly = (0x41...0x5A).contains(y) ? y | 0x20 : y
                if lx != ly { return false }
            default:
                return a.utf8.contains { $0 >= 0x80 } || b.utf8.contains { $0 >= 0x80 } ? a.lowercased() == b.lowercased() : false
            }
        }
    }
}

/// A chord of a pair of hands: each side is a one-hand chord value, 0 when that hand does not tap.
///
/// One side 0 is a chord of that hand only (`".....|x...."`: the right thumb); both sides set is a
/// two-hand chord, tapped with both hands within the combo window.
public struct HandChord: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let left: UInt8
    public let right: UInt8

    /// Fails unless both sides are 0...31 and at least one is not 0.
    public init?(left: UInt8, right: UInt8) {
        guard left <= 31, right <= 31, left | right != 0 else { return nil }
        self.left = left
        self.right = right
    }

    /// The chord of `hand` alone.
    public init(_ chord: Chord, on hand: Hand) {
        (left, right) = hand == .left ? (chord.rawValue, 0) : (0, chord.rawValue)
    }

    /// True when both hands tap.
    public var isTwoHanded: Bool { left != 0 && right != 0 }

    /// The chord of the one hand that taps; nil when both do.
    public var oneHand: Chord? { isTwoHanded ? nil : Chord(rawValue: left | right) }

    /// The spelling ``ChordKey/init(spelling:)`` reads back: the left hand pinky first, so both
    /// hands read outward from the body (`"...xx|xx..."` is both thumbs and index fingers).
    public var description: String {
        let l = Chord(rawValue: left).map { String($0.pattern.reversed()) } ?? "....."
        let r = Chord(rawValue: right)?.pattern ?? "....."
        return l + "|" + r
    }

    public static func < (a: HandChord, b: HandChord) -> Bool { (a.left, a.right) < (b.left, b.right) }
}

/// What a binding or a sequence step is keyed by: a one-hand chord of whichever hand taps it, or a
/// chord of a particular hand or of both hands.
public enum ChordKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    case anyHand(Chord)
    case hands(HandChord)

    /// Reads a one-hand spelling (``Chord/init(spelling:)``) or `LEFT|RIGHT`, where each side is a
    /// one-hand spelling or empty (or `.....`) for a hand that does not tap. The left side's
    /// x/. pattern is written pinky first, mirroring the right.
    public init?(spelling: String) {
        guard spelling.contains("|") else {
            guard let c = Chord(spelling: spelling) else { return nil }
            self = .anyHand(c)
            return
        }
        let sides = spelling.split(separator: "|", omittingEmptySubsequences: false)
        guard sides.count == 2, let l = Self.side(sides[0], mirrored: true), let r = Self.side(sides[1], mirrored: false),
              let chord = HandChord(left: l, right: r) else { return nil }
        self = .hands(chord)
    }

    /// Why a spelling is not a chord key, for diagnostics; nil when it is one.
    static func problem(with spelling: String) -> String? {
        guard spelling.contains("|") else { return Chord.problem(with: spelling) }
        let sides = spelling.split(separator: "|", omittingEmptySubsequences: false)
        guard sides.count == 2 else { return "a two-hand chord has one \"|\" between the left and the right hand" }
        for (side, name, mirrored) in [(sides[0], "left", true), (sides[1], "right", false)] where Self.side(side, mirrored: mirrored) == nil {
            return "the \(name) hand's \"\(side.trimmingSpaces)\": " + (Chord.problem(with: String(side)) ?? "not a chord")
        }
        return "neither hand taps in \"\(spelling)\""
    }

    private static func side(_ s: Substring, mirrored: Bool) -> UInt8? {
        let t = s.trimmingSpaces
        if t.isEmpty || t == "....." { return 0 }
        let isPattern = t.count == 5 && t.allSatisfy { "xXoO*.-_".contains($0) }
        let spelled = mirrored && isPattern ? String(t.reversed()) : t
        return Chord(spelling: spelled)?.rawValue
    }

    public var description: String {
        switch self {
        case .anyHand(let c): c.pattern
        case .hands(let h): h.description
        }
    }

    /// The chord of the one hand that taps, nil for a two-hand chord.
    var oneHandChord: Chord? {
        switch self {
        case .anyHand(let c): c
        case .hands(let h): h.oneHand
        }
    }

    public static func < (a: ChordKey, b: ChordKey) -> Bool {
        switch (a, b) {
        case (.anyHand(let x), .anyHand(let y)): x < y
        case (.hands(let x), .hands(let y)): x < y
        case (.anyHand, .hands): true
        case (.hands, .anyHand): false
        }
    }
}
