import ChordMap

/// `--layer` named a layer the keymap does not have.
public enum CheatsheetError: Error, Equatable, CustomStringConvertible {
    case unknownLayer(String, available: [String])

    public var description: String {
        switch self {
        case .unknownLayer(let name, let available):
            "no layer \"\(name)\" in this keymap; its layers are " + available.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}

/// One tile of the sheet: a chord (or gesture) and what one, two and three taps of it do.
struct CheatsheetCard: Equatable {
    enum Glyph: Equatable {
        /// Drawn as a hand with the chord's fingers filled.
        case chord(Chord)
        /// Drawn as a name: a gesture's, or the spelling of a two-hand chord or a sequence.
        case named(String)
    }
    var glyph: Glyph
    /// Labels, unescaped.
    var tap: String
    var double: String?
    var triple: String?

    var hasMultiTap: Bool { double != nil || triple != nil }
}

/// A titled group of cards: one layer, or the gestures.
struct CheatsheetSection: Equatable {
    /// Unique within the sheet and safe as an HTML id / XML attribute without escaping.
    var id: String
    var title: String
    /// Short explanations printed under the title (how the layer is reached, what unbound chords do).
    var notes: [String]
    var cards: [CheatsheetCard]
}

/// What the cheat sheet shows, independent of SVG/HTML: the pure "keymap -> labelled cards" step.
struct CheatsheetContent: Equatable {
    var title: String
    var multiTapWindowMs: Int
    var sections: [CheatsheetSection]

    /// Builds the content for `keymap`, or for its layer named `layer` only.
    ///
    /// Every bound chord of every selected layer becomes one card, `none` included (in a layer it
    /// stops the chord falling through, which is worth seeing). Chords are ordered by the number of
    /// fingers, then thumb-first (`xx...` before `x.x..`), so the sheet reads like a chart to learn
    /// from. Gestures get a section of their own when the keymap binds any and no layer was chosen.
    ///
    /// - Throws: ``CheatsheetError/unknownLayer(_:available:)`` if `layer` is not in the keymap.
    init(keymap: Keymap, layer: String? = nil) throws(CheatsheetError) {
        title = keymap.name
        multiTapWindowMs = keymap.options.multiTapWindowMs
        var chosen = Array(keymap.layers.enumerated())
        if let layer {
            chosen = chosen.filter { $0.element.name == layer }
            if chosen.isEmpty { throw .unknownLayer(layer, available: keymap.layers.map(\.name)) }
        }
        sections = chosen.map { index, layer in
            CheatsheetSection(id: Self.sectionID(index: index, name: layer.name), title: "Layer: \(layer.name)",
                              notes: Self.notes(for: layer, index: index, in: keymap),
                              cards: Self.cards(for: layer))
        }
        if layer == nil, !keymap.gestures.isEmpty {
            let cards = keymap.gestures.sorted { $0.key < $1.key }.map { code, action in
                CheatsheetCard(glyph: .named(Self.gestureName(code)), tap: ActionLabel.label(action, inLayer: "base"))
            }
            sections.append(CheatsheetSection(id: "gestures", title: "Gestures",
                                              notes: ["Air gestures and TapXR hand states (TapXR / air mouse)."], cards: cards))
        }
    }

    static func cards(for layer: Layer) -> [CheatsheetCard] {
        layer.bindings.sorted { a, b in
            let (ca, cb) = (a.chord.rawValue.nonzeroBitCount, b.chord.rawValue.nonzeroBitCount)
            // "x" sorts after "." in ASCII, so a descending pattern puts thumb chords first.
            return ca != cb ? ca < cb : a.chord.pattern > b.chord.pattern
        }.map { chord, binding in card(.chord(chord), binding, layer: layer.name)
        } + layer.handBindings.sorted { $0.key < $1.key }.map { chord, binding in
            card(.named(chord.description), binding, layer: layer.name)
        } + layer.sequences.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { keys, action in
            CheatsheetCard(glyph: .named(keys.map(\.description).joined(separator: ", ")),
                           tap: ActionLabel.label(action, inLayer: layer.name))
        }
    }

    /// A binding's card: what one, two and three taps do.
    private static func card(_ glyph: CheatsheetCard.Glyph, _ binding: Binding, layer: String) -> CheatsheetCard {
        CheatsheetCard(glyph: glyph, tap: ActionLabel.label(binding.tap, inLayer: layer),
                       double: binding.double.map { ActionLabel.label($0, inLayer: layer) },
                       triple: binding.triple.map { ActionLabel.label($0, inLayer: layer) })
    }

    /// "Reached with ..xxx in base (toggle)" and what unbound chords do.
    static func notes(for layer: Layer, index: Int, in keymap: Keymap) -> [String] {
        let empty = layer.bindings.isEmpty ? ["No chords of its own."] : []
        if index == 0 { return empty + ["Every device starts here. Chords not shown do nothing."] }
        var ways: [String] = []
        for other in keymap.layers where other.name != layer.name {
            for (chord, binding) in other.bindings {
                for (count, action) in [binding.tap, binding.double, binding.triple].enumerated() {
                    guard let action, let how = reference(in: action, to: layer.name) else { continue }
                    ways.append("\(chord.pattern)\(count > 0 ? " ×\(count + 1)" : "") in \(other.name) (\(how))")
                }
            }
        }
        for (code, action) in keymap.gestures.sorted(by: { $0.key < $1.key }) {
            if let how = reference(in: action, to: layer.name) { ways.append("gesture \(gestureName(code)) (\(how))") }
        }
        var notes = empty
        if !ways.isEmpty { notes.append("Reached with " + ways.joined(separator: "; ") + ".") }
        if let returns = returnNote(layer) { notes.append(returns) }
        let hooks = [("on entering", layer.onEnter), ("on leaving", layer.onLeave)].compactMap { when, action in
            action.map { "\(when): \(ActionLabel.label($0, inLayer: layer.name))" }
        }
        if !hooks.isEmpty { notes.append(hooks.joined(separator: "; ").capitalizedFirst + ".") }
        notes.append(layer.fallsThrough ? "Chords not shown act as in base." : "Chords not shown do nothing.")
        return notes
    }

    /// "Returns to base after 3 chords or 2 s without a chord." (`return-after-chords`/`-ms`).
    static func returnNote(_ layer: Layer) -> String? {
        var after: [String] = []
        if let n = layer.returnAfterChords { after.append(n == 1 ? "1 chord" : "\(n) chords") }
        if let ms = layer.returnAfterMs {
            let time = ms % 1000 == 0 ? "\(ms / 1000) s" : ms > 1000 ? "\(Double(ms) / 1000) s" : "\(ms) ms"
            after.append("\(time) without a chord")
        }
        return after.isEmpty ? nil : "Returns to base after " + after.joined(separator: " or ") + "."
    }

    /// "toggle" or "one chord" if `action` (or a step of a sequence) switches to `layer`.
    private static func reference(in action: Action, to layer: String) -> String? {
        switch action {
        case .toggleLayer(layer): "toggle"
        case .oneShotLayer(layer): "one chord"
        case .sequence(let steps): steps.lazy.compactMap { reference(in: $0, to: layer) }.first
        default: nil
        }
    }

    /// An id made of ASCII letters, digits and `-` only, unique through the layer index, so it
    /// needs no escaping wherever it is used.
    static func sectionID(index: Int, name: String) -> String {
        let safe = name.lowercased().unicodeScalars.map { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) ? Character($0) : "-" }
        return "layer-\(index)-" + String(safe.prefix(40))
    }

    /// The keymap spelling of a gesture code (as in `[gestures]`), or `gesture N` for other codes.
    static func gestureName(_ code: Int) -> String {
        GestureNames.name(for: code) ?? "gesture \(code)"
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
