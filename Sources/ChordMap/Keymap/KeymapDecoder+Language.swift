import TOMLKit

/// Decoding of `[aliases]`, `[feedback]`, macros and the layer options `return-after-chords`,
/// `return-after-ms`, `on-enter` and `on-leave`. Alias references stay unresolved here: the
/// loader resolves them once the `extends` chain is merged (a child's alias applies to its
/// parent's bindings too).
extension KeymapDecoder {
    static let feedbackFields = ["haptics", "layer", "lock", "connect"]
    static let layerOptions = ["fallthrough", "return-after-chords", "return-after-ms", "on-enter", "on-leave"]
    static let returnAfterChordsRange = 1...100
    static let returnAfterMsRange = 100...600_000

    mutating func decodeAliases(_ t: TOMLTable, into doc: inout KeymapDocument) {
        for (name, value) in sorted(t, path: ["aliases"]) {
            let path = ["aliases", name]
            guard ActionParser.isAliasName(name) else {
                error(key: path, "alias name \"\(name)\" may only use letters, digits, - and _", hint: "e.g. save = \"ctrl+s\", used as \"@save\"")
                continue
            }
            if let action = action(value, path), let loc = locator.value(path) {
                doc.aliases[name] = Located(value: action, location: loc)
            }
        }
    }

    mutating func decodeFeedback(_ t: TOMLTable, into doc: inout KeymapDocument) {
        let fields: [String: WritableKeyPath<FeedbackSettings, Bool>] = [
            "haptics": \.haptics, "layer": \.layer, "lock": \.lock, "connect": \.connect,
        ]
        for (key, value) in sorted(t, path: ["feedback"]) {
            let path = ["feedback", key]
            guard let field = fields[key] else {
                unknownField(key, path: path, known: Self.feedbackFields, in: "[feedback]")
                continue
            }
            if let b = bool(value, path) { doc.feedback.append { $0[keyPath: field] = b } }
        }
    }

    /// A layer option other than `fallthrough`; false if `key` is not one (then it is a chord).
    mutating func decodeLayerOption(_ key: String, _ value: TOMLValueConvertible, _ path: [String],
                                    into layer: inout LayerDocument) -> Bool {
        switch key {
        case "return-after-chords":
            guard let n = int(value, path) else { return true }
            if Self.returnAfterChordsRange.contains(n) { layer.returnAfterChords = n }
            else { error(value: path, "return-after-chords must be 1 to 100, not \(n)", hint: "e.g. return-after-chords = 3; for one chord use layer(\(layer.name))") }
        case "return-after-ms":
            guard let ms = int(value, path) else { return true }
            if Self.returnAfterMsRange.contains(ms) { layer.returnAfterMs = ms }
            else { error(value: path, "return-after-ms must be 100 to 600000, not \(ms)", hint: "e.g. return-after-ms = 2000 (two seconds without a chord)") }
        case "on-enter", "on-leave":
            guard let action = action(value, path), let loc = locator.value(path) else { return true }
            if key == "on-enter" { layer.onEnter = Located(value: action, location: loc) }
            else { layer.onLeave = Located(value: action, location: loc) }
        default:
            // A key close to an option name is a misspelt option, not a chord: say so.
            guard Chord(spelling: key) == nil, let near = Suggest.nearest(key, in: Self.layerOptions).first,
                  Suggest.distance(key.lowercased(), near) <= 3 else { return false }
            unknownField(key, path: path, known: Self.layerOptions, in: "[layers.\(layer.name)]")
            return true
        }
        return true
    }

    /// `[ "ctrl+c", 50, "alt+tab" ]`: actions, with integers as delays in ms between them.
    mutating func macro(_ value: TOMLValueConvertible, _ path: [String]) -> Action? {
        let v = value.tomlValue
        guard v.type == .array, let array = v.array else {
            error(value: path, "a macro is an array of actions and delays", hint: "e.g. { macro = [\"ctrl+c\", 50, \"ctrl+v\"] }")
            return nil
        }
        var steps: [MacroStep] = []
        var delay = 0
        var ok = true
        for (i, element) in array.enumerated() {
            let elementPath = path + ["#\(i)"]
            if element.tomlValue.type == .int, let ms = element.tomlValue.int {
                guard (0...MacroLimits.maxDelayMs).contains(ms) else {
                    error(value: elementPath, "a macro delay must be 0 to \(MacroLimits.maxDelayMs) ms, not \(ms)",
                          hint: "split a longer wait into several delays (the whole macro may last \(MacroLimits.maxTotalMs / 1000) s)")
                    ok = false
                    continue
                }
                delay += ms
            } else if let action = action(element, elementPath, nested: true) {
                steps.append(MacroStep(delayMs: delay, action: action))
                delay = 0
            } else {
                ok = false
            }
        }
        guard ok else { return nil }
        if steps.isEmpty {
            error(value: path, "a macro needs at least one action", hint: "e.g. { macro = [\"ctrl+c\", 50, \"ctrl+v\"] }")
            return nil
        }
        if delay > 0 {
            error(value: path + ["#\(array.count - 1)"], "a delay at the end of a macro does nothing", hint: "remove it, or add the action it waits for")
            return nil
        }
        if let problem = MacroLimits.problem(steps) {
            error(value: path, problem.message, hint: problem.hint)
            return nil
        }
        return .macro(steps)
    }
}
