import TOMLKit

/// Decoding what two hands and sequences add to a keymap: `[hands]`, `"LEFT|RIGHT"` bindings and
/// `"a, b"` sequence keys.
extension KeymapDecoder {
    mutating func decodeHands(_ t: TOMLTable, into doc: inout KeymapDocument) {
        var hands = HandRoles()
        for (key, value) in sorted(t, path: ["hands"]) {
            let path = ["hands", key]
            switch key {
            case "left": hands.left = string(value, path)
            case "right": hands.right = string(value, path)
            default: unknownField(key, path: path, known: ["left", "right"], in: "[hands]")
            }
        }
        if let l = hands.left, let r = hands.right, HandRoles.same(l, r) {
            error(value: ["hands", "right"], "both hands are \"\(r)\"", hint: "name two different devices (their Bluetooth names or addresses)")
        }
        doc.hands = hands
    }

    /// `"LEFT|RIGHT"`: a chord of both hands, or of one particular hand.
    mutating func decodeHandBinding(_ key: String, _ value: TOMLValueConvertible, path: [String], into layer: inout LayerDocument) {
        guard case .hands(let chord)? = ChordKey(spelling: key) else {
            error(key: path, ChordKey.problem(with: key) ?? "not a chord", hint: Self.handsHint)
            return
        }
        if let first = layer.handBindings[chord] {
            error(key: path, "chord \(chord) is bound twice in layer \"\(layer.name)\"",
                  hint: "it is already bound on line \(first.location.line); keep one of them")
        } else if let binding = binding(value, path), let loc = locator.value(path) {
            layer.handBindings[chord] = Located(value: binding, location: loc)
        }
    }

    static let handsHint = "write the left hand pinky first, then | and the right hand thumb first: \"....x|x....\" is both thumbs, \".....|x....\" the right thumb alone"

    /// `"x...., .x..."`: chords in a row, each a one-hand or two-hand spelling.
    mutating func decodeSequence(_ key: String, _ value: TOMLValueConvertible, path: [String], into layer: inout LayerDocument) {
        let parts = key.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var keys: [ChordKey] = []
        for part in parts {
            guard let k = ChordKey(spelling: part) else {
                let problem = ChordKey.problem(with: part) ?? "not a chord"
                error(key: path, "in the sequence, \"\(part.trimmingSpaces)\": \(problem)",
                      hint: "a sequence is chords separated by commas: \"x...., .x...\"")
                return
            }
            keys.append(k)
        }
        guard keys.count <= Self.maxSequenceLength else {
            error(key: path, "a sequence of \(keys.count) chords is too long", hint: "at most \(Self.maxSequenceLength) chords")
            return
        }
        if let first = layer.sequences[keys] {
            error(key: path, "this sequence is bound twice in layer \"\(layer.name)\"",
                  hint: "it is already bound on line \(first.location.line); keep one of them")
            return
        }
        let v = value.tomlValue
        if v.type == .table, let t = v.table, ["tap", "double", "triple"].contains(where: { t.contains(key: $0) }) {
            error(value: path, "a sequence runs one action, not a multi-tap table", hint: "bind the action directly: \"x...., .x...\" = \"ctrl+s\"")
            return
        }
        if let action = action(value, path), let loc = locator.value(path) {
            layer.sequences[keys] = Located(value: action, location: loc)
        }
    }
}
