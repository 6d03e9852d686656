/// A character a keymap types that the layout cannot: it types nothing, and is reported.
public struct UntypeableCharacter: Equatable, Sendable, CustomStringConvertible {
    public var character: Character
    /// Where the keymap first writes it, if known.
    public var location: SourceLocation?
    /// The layout's name (``CharacterMap/name``).
    public var layout: String

    /// `file:line:column: warning: ...` on one line, like a ``Diagnostic`` but a warning.
    public var description: String {
        let scalars = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        let place = location.map { "\($0.file):\($0.line):\($0.column): " } ?? ""
        return "\(place)warning: \"\(character)\" (\(scalars)) cannot be typed on the \(layout) layout; it types nothing"
    }

    /// What to do about such characters, said once after the warnings.
    public static let hint = "hint: set unicode = \"ctrl-shift-u\" under [options] (GTK, Qt under IBus), use a layout that has them (layout = \"...\"), or bind key names"
}

extension Keymap {
    /// This keymap with every ``Action/character(_:modifiers:)``, ``Action/text(_:)`` and
    /// ``Action/usKey(_:modifiers:)`` turned into physical keystrokes for `map`, and the
    /// characters it could not type (which become nothing, never another character).
    ///
    /// Runs when a keymap or the layout changes (time linear in the keymap's size); the engine
    /// then executes keystrokes only. Characters missing from the layout use the Unicode input
    /// method chosen in ``KeymapOptions/unicode``, if any.
    public func resolvingCharacters(with map: CharacterMap) -> (keymap: Keymap, untypeable: [UntypeableCharacter]) {
        var resolver = CharacterResolver(map: map, unicode: options.unicode)
        var resolved = self
        for i in resolved.layers.indices {
            for (chord, binding) in resolved.layers[i].bindings {
                resolved.layers[i][chord] = binding.mapActions { resolver.resolve($0) }
            }
            if !resolved.layers[i].handBindings.isEmpty {
                resolved.layers[i].handBindings = resolved.layers[i].handBindings.mapValues { $0.mapActions { resolver.resolve($0) } }
            }
            if !resolved.layers[i].sequences.isEmpty {
                resolved.layers[i].sequences = resolved.layers[i].sequences.mapValues { resolver.resolve($0) }
            }
            resolved.layers[i].onEnter = resolved.layers[i].onEnter.map { resolver.resolve($0) }
            resolved.layers[i].onLeave = resolved.layers[i].onLeave.map { resolver.resolve($0) }
        }
        resolved.gestures = resolved.gestures.mapValues { resolver.resolve($0) }
        let missing = resolver.missing.sorted { String($0) < String($1) }.map {
            UntypeableCharacter(character: $0, location: characterLocations[$0], layout: map.name)
        }
        return (resolved, missing.sorted { a, b in
            guard let la = a.location, let lb = b.location else { return a.location != nil && b.location == nil }
            return (la.file, la.line, la.column) < (lb.file, lb.line, lb.column)
        })
    }
}

/// Turns character actions into keystrokes for one layout, remembering what it could not type.
struct CharacterResolver {
    let map: CharacterMap
    let unicode: UnicodeInput
    private(set) var missing: Set<Character> = []

    init(map: CharacterMap, unicode: UnicodeInput) {
        self.map = map
        self.unicode = unicode
    }

    mutating func resolve(_ action: Action) -> Action {
        switch action {
        case .character(let c, let modifiers):
            let isShortcut = modifiers.contains { $0 != .leftShift && $0 != .rightShift }
            if let strokes = map.strokes[c], strokes.count == 1 {
                return .key(strokes[0].key, modifiers: merged(strokes[0].modifiers, modifiers))
            }
            if isShortcut {
                // Applications match shortcuts on a non-Latin layout at the US positions.
                guard let us = map.usPositions[c] else { missing.insert(c); return .none }
                return .key(us.key, modifiers: merged(us.modifiers, modifiers))
            }
            guard let strokes = keystrokes(for: c) else { return .none }
            return .typed(strokes)
        case .usKey(let c, let modifiers):
            guard let us = map.usPositions[c] else { missing.insert(c); return .none }
            return .key(us.key, modifiers: merged(us.modifiers, modifiers))
        case .text(let text):
            var strokes: [KeyStroke] = []
            for c in text { strokes += keystrokes(for: c) ?? [] }
            return strokes.isEmpty ? .none : .typed(strokes)
        case .sequence(let actions):
            return .sequence(actions.map { resolve($0) })
        case .macro(let steps):
            return .macro(steps.map { MacroStep(delayMs: $0.delayMs, action: resolve($0.action)) })
        default:
            return action
        }
    }

    /// The keystrokes for `c`: its key, its dead-key sequence, or the Unicode input method;
    /// nil (and remembered as missing) when none applies.
    private mutating func keystrokes(for c: Character) -> [KeyStroke]? {
        if let strokes = map.strokes[c] { return strokes }
        if unicode == .ctrlShiftU, let strokes = ctrlShiftU(c) { return strokes }
        missing.insert(c)
        return nil
    }

    /// Ctrl+Shift+U, the hex code point(s), Space; nil if the layout cannot type the hex digits.
    private func ctrlShiftU(_ c: Character) -> [KeyStroke]? {
        guard let u = map.usPositions["u"] else { return nil }
        var strokes: [KeyStroke] = []
        for scalar in c.unicodeScalars {
            strokes.append(KeyStroke(key: u.key, modifiers: [.leftCtrl, .leftShift]))
            for digit in String(scalar.value, radix: 16) {
                guard let s = map.strokes[digit], s.count == 1 else { return nil }
                strokes += s
            }
            guard let space = map.strokes[" "] else { return nil }
            strokes += space
        }
        return strokes
    }

    /// The layout's modifiers for the character first, then the binding's, without repeats.
    private func merged(_ layout: [KeyCode], _ own: [KeyCode]) -> [KeyCode] {
        layout + own.filter { !layout.contains($0) }
    }
}
