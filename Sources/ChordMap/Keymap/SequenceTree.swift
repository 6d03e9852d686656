/// A layer's chord sequences as a prefix tree: the engine follows it one played chord at a time,
/// so each tap costs one dictionary look-up whatever the number or length of sequences.
struct SequenceTree: Sendable, Equatable {
    struct Node: Sendable, Equatable {
        var action: Action?
        var children: [ChordKey: Int] = [:]
    }

    /// Node 0 is the root (no chord played yet).
    private(set) var nodes: [Node] = [Node()]

    init(_ sequences: [[ChordKey]: Action]) {
        for (keys, action) in sequences {
            var node = 0
            for key in keys {
                if let next = nodes[node].children[key] {
                    node = next
                } else {
                    nodes.append(Node())
                    nodes[node].children[key] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            nodes[node].action = action
        }
    }

    var isEmpty: Bool { nodes.count == 1 }

    /// The node a played chord leads to from `node`: a step written for that hand (or both hands)
    /// first, then a step written for whichever hand.
    func child(of node: Int, played: ChordKey) -> Int? {
        let children = nodes[node].children
        if let n = children[played] { return n }
        if case .hands(let h) = played, let c = h.oneHand {
            return children[.anyHand(c)]
        }
        return nil
    }
}

/// Which chords of each hand appear in a two-hand chord of a layer (a binding or a sequence
/// step), so the engine knows at once whether a tap must wait for the other hand.
struct PairIndex: Sendable, Equatable {
    /// Bit n set: chord n of that hand is one side of some two-hand chord.
    var leftStarters: UInt32 = 0
    var rightStarters: UInt32 = 0
    /// Chords written for one particular hand (`".....|x...."`), in bindings or sequence steps.
    var oneSided: Set<HandChord> = []

    init() {}

    init(_ layer: Layer) {
        for h in layer.handBindings.keys { add(h) }
        for keys in layer.sequences.keys {
            for case .hands(let h) in keys { add(h) }
        }
    }

    private mutating func add(_ h: HandChord) {
        guard h.isTwoHanded else {
            oneSided.insert(h)
            return
        }
        leftStarters |= 1 << UInt32(h.left)
        rightStarters |= 1 << UInt32(h.right)
    }

    /// True if `chord` of `hand` is one side of some two-hand chord.
    func starts(_ chord: Chord, on hand: Hand) -> Bool {
        (hand == .left ? leftStarters : rightStarters) & (1 << UInt32(chord.rawValue)) != 0
    }
}
