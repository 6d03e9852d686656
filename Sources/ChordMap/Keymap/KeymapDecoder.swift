import TOMLKit

/// Turns one parsed TOML table into a ``KeymapDocument``, collecting every problem with its position
/// (found through ``SourceLocator``) instead of stopping at the first.
struct KeymapDecoder {
    let locator: SourceLocator
    private(set) var diagnostics: [Diagnostic] = []

    init(locator: SourceLocator) { self.locator = locator }

    static let topLevelFields = ["name", "extends", "options", "mouse", "match", "hands", "gestures", "layers", "aliases", "feedback"]
    static let optionFields = ["multi-tap-window-ms", "combo-window-ms", "sequence-window-ms", "allow-commands", "layout", "unicode"]
    /// Longest chord sequence: longer ones are unlikely to be typed within their windows.
    static let maxSequenceLength = 8
    static let mouseFields = ["sensitivity", "acceleration", "threshold", "max-gain", "scroll-sensitivity",
                              "invert-x", "invert-y", "natural-scroll"]

    mutating func decode(_ root: TOMLTable) -> KeymapDocument {
        var doc = KeymapDocument(file: locator.file)
        for (key, value) in sorted(root, path: []) {
            let path = [key]
            switch key {
            case "name": doc.name = string(value, path)
            case "extends":
                if let s = string(value, path), let loc = locator.value(path) { doc.extends = Located(value: s, location: loc) }
            case "options": table(value, path).map { decodeOptions($0, into: &doc) }
            case "mouse": table(value, path).map { decodeMouse($0, into: &doc) }
            case "match": table(value, path).map { decodeMatch($0, into: &doc) }
            case "hands": table(value, path).map { decodeHands($0, into: &doc) }
            case "gestures": table(value, path).map { decodeGestures($0, into: &doc) }
            case "aliases": table(value, path).map { decodeAliases($0, into: &doc) }
            case "feedback": table(value, path).map { decodeFeedback($0, into: &doc) }
            case "layers":
                guard let layers = table(value, path) else { break }
                for (name, layerValue) in sorted(layers, path: path) {
                    if let t = table(layerValue, path + [name]) { doc.layers.append(decodeLayer(name, t)) }
                }
            default: unknownField(key, path: path, known: Self.topLevelFields, in: "the top level")
            }
        }
        return doc
    }

    // MARK: Sections

    private mutating func decodeOptions(_ t: TOMLTable, into doc: inout KeymapDocument) {
        for (key, value) in sorted(t, path: ["options"]) {
            let path = ["options", key]
            switch key {
            case "multi-tap-window-ms":
                guard let ms = int(value, path) else { break }
                if (50...2000).contains(ms) { doc.multiTapWindowMs = ms }
                else { error(value: path, "multi-tap-window-ms must be 50 to 2000, not \(ms)", hint: "typical windows are 250-350 ms") }
            case "combo-window-ms":
                guard let ms = int(value, path) else { break }
                if (10...500).contains(ms) { doc.comboWindowMs = ms }
                else { error(value: path, "combo-window-ms must be 10 to 500, not \(ms)", hint: "the default, 60 ms, covers two hands tapping together") }
            case "sequence-window-ms":
                guard let ms = int(value, path) else { break }
                if (50...5000).contains(ms) { doc.sequenceWindowMs = ms }
                else { error(value: path, "sequence-window-ms must be 50 to 5000, not \(ms)", hint: "the default is 500 ms between the chords of a sequence") }
            case "allow-commands": doc.allowCommands = bool(value, path)
            case "layout":
                guard let name = string(value, path) else { break }
                if Self.isLayoutName(name) { doc.layout = name }
                else { error(value: path, "\"\(name)\" is not a keyboard layout name", hint: "XKB names like \"de\", \"fr(azerty)\" or \"us(dvorak)\" (localectl list-x11-keymap-layouts)") }
            case "unicode":
                guard let name = string(value, path) else { break }
                if let mode = UnicodeInput(rawValue: name) { doc.unicode = mode }
                else { error(value: path, "unknown unicode input \"\(name)\"", hint: "one of " + UnicodeInput.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) }
            default: unknownField(key, path: path, known: Self.optionFields, in: "[options]")
            }
        }
    }

    /// `de`, `fr(azerty)`, `de:nodeadkeys`, `us,de`: letters, digits, `_-,():` only. Whether XKB
    /// knows the name is checked when the layout is compiled.
    static func isLayoutName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-,():".contains($0)) }
    }

    private mutating func decodeMouse(_ t: TOMLTable, into doc: inout KeymapDocument) {
        for (key, value) in sorted(t, path: ["mouse"]) {
            let path = ["mouse", key]
            let numeric: [String: (WritableKeyPath<MouseSettings, Double>, ClosedRange<Double>)] = [
                "sensitivity": (\.sensitivity, 0.01...100), "acceleration": (\.acceleration, 0...10),
                "threshold": (\.threshold, 0.1...10_000), "max-gain": (\.maxGain, 1...50),
                "scroll-sensitivity": (\.scrollSensitivity, 0.01...1000),
            ]
            let flags: [String: WritableKeyPath<MouseSettings, Bool>] = [
                "invert-x": \.invertX, "invert-y": \.invertY, "natural-scroll": \.naturalScroll,
            ]
            if let (field, range) = numeric[key] {
                guard let v = number(value, path) else { continue }
                guard range.contains(v) else {
                    error(value: path, "\(key) must be between \(range.lowerBound) and \(range.upperBound), not \(v)",
                          hint: "the default is \(MouseSettings()[keyPath: field])")
                    continue
                }
                doc.mouse.append { $0[keyPath: field] = v }
            } else if let field = flags[key] {
                if let b = bool(value, path) { doc.mouse.append { $0[keyPath: field] = b } }
            } else {
                unknownField(key, path: path, known: Self.mouseFields, in: "[mouse]")
            }
        }
    }

    private mutating func decodeMatch(_ t: TOMLTable, into doc: inout KeymapDocument) {
        var match = KeymapMatch()
        for (key, value) in sorted(t, path: ["match"]) {
            let path = ["match", key]
            switch key {
            case "apps": match.apps = patterns(value, path)
            case "titles": match.titles = patterns(value, path)
            case "devices": match.devices = patterns(value, path)
            default: unknownField(key, path: path, known: ["apps", "titles", "devices"], in: "[match]")
            }
        }
        doc.match = match
    }

    private mutating func decodeGestures(_ t: TOMLTable, into doc: inout KeymapDocument) {
        for (key, value) in sorted(t, path: ["gestures"]) {
            let path = ["gestures", key]
            guard let code = GestureNames.codes[key] ?? Int(key) else {
                error(key: path, "unknown air gesture \"\(key)\"",
                      hint: Suggest.hint(key, in: Array(GestureNames.codes.keys)) ?? "use a gesture name or its code number")
                continue
            }
            // Codes arrive as one byte; any other number could never fire.
            guard (0...255).contains(code) else {
                error(key: path, "gesture code \(code) is out of range",
                      hint: "codes are 0-255: air gestures 1-14, TapXR hand states 100-105")
                continue
            }
            if let action = action(value, path), let loc = locator.value(path) {
                doc.gestures[code] = Located(value: action, location: loc)
            }
        }
    }

    private mutating func decodeLayer(_ name: String, _ t: TOMLTable) -> LayerDocument {
        let header = locator.key(["layers", name]) ?? SourceLocation(file: locator.file, line: 1, column: 1)
        var layer = LayerDocument(name: name, header: header)
        if !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) || name.isEmpty {
            error(key: ["layers", name], "layer name \"\(name)\" may only use letters, digits, - and _", hint: "e.g. [layers.my-layer]")
        }
        var seen: [Chord: String] = [:]
        for (key, value) in sorted(t, path: ["layers", name]) {
            let path = ["layers", name, key]
            if key == "fallthrough" {
                layer.fallsThrough = bool(value, path)
                continue
            }
            if key.contains(",") {
                decodeSequence(key, value, path: path, into: &layer)
                continue
            }
            if key.contains("|") {
                decodeHandBinding(key, value, path: path, into: &layer)
                continue
            }
            if decodeLayerOption(key, value, path, into: &layer) { continue }
            guard let chord = Chord(spelling: key) else {
                error(key: path, Chord.problem(with: key) ?? "not a chord", hint: chordHint(key))
                continue
            }
            if let first = seen[chord] {
                let firstLine = locator.key(["layers", name, first])?.line ?? 0
                error(key: path, "chord \(chord.pattern) (\(chord.rawValue)) is bound twice in layer \"\(name)\"",
                      hint: "it is already bound as \"\(first)\" on line \(firstLine); keep one of them")
                continue
            }
            seen[chord] = key
            if let binding = binding(value, path), let loc = locator.value(path) {
                layer.bindings[chord] = Located(value: binding, location: loc)
            }
        }
        return layer
    }

    private func chordHint(_ key: String) -> String {
        if let v = Int(key), v > 31 || v < 1 { return "a chord is 1-31: thumb 1, index 2, middle 4, ring 8, pinky 16, added up" }
        return "write chords thumb first as five x/. marks (\"x.x..\" is thumb+middle), as \"thumb+middle\", or as 1-31"
    }

    // MARK: Bindings and actions

    mutating func binding(_ value: TOMLValueConvertible, _ path: [String]) -> Binding? {
        let v = value.tomlValue
        if v.type == .table, let t = v.table, ["tap", "double", "triple"].contains(where: { t.contains(key: $0) }) {
            var tap: Action?, double: Action?, triple: Action?
            for (key, sub) in sorted(t, path: path) {
                switch key {
                case "tap": tap = action(sub, path + [key])
                case "double": double = action(sub, path + [key])
                case "triple": triple = action(sub, path + [key])
                default: unknownField(key, path: path + [key], known: ["tap", "double", "triple"], in: "a multi-tap binding")
                }
            }
            guard let tap else {
                if t.contains(key: "tap") { return nil }   // already reported
                error(value: path, "a multi-tap binding needs a \"tap\" action", hint: "e.g. { tap = \"a\", double = \"v\" }")
                return nil
            }
            return Binding(tap: tap, double: double, triple: triple)
        }
        return action(value, path).map { Binding(tap: $0) }
    }

    /// A string action, an array (sequence) or a `{ text = ... }` / `{ run = [...] }` table.
    mutating func action(_ value: TOMLValueConvertible, _ path: [String], nested: Bool = false) -> Action? {
        let v = value.tomlValue
        switch v.type {
        case .string:
            do throws(ActionParser.Failure) {
                return try ActionParser.parse(v.string ?? "")
            } catch {
                self.error(value: path, error.message, hint: error.hint)
                return nil
            }
        case .array where !nested:
            guard let array = v.array, !array.isEmpty else {
                error(value: path, "an empty sequence", hint: "use \"none\" to bind nothing")
                return nil
            }
            let items = array.enumerated().map { action($0.element, path + ["#\($0.offset)"], nested: true) }
            let actions = items.compactMap { $0 }
            return actions.count == items.count ? .sequence(actions) : nil
        case .table:
            guard let t = v.table else { return nil }
            let keys = t.keys
            if keys.count == 1, keys.first == "macro" { return macro(t["macro"]!, path + ["macro"]) }
            guard keys.count == 1, let key = keys.first, key == "text" || key == "run" else {
                if keys.isEmpty {
                    error(value: path, "an empty table is not an action", hint: "use \"none\" to bind nothing")
                } else if let bad = keys.sorted(by: { locator.rank(path + [$0]) < locator.rank(path + [$1]) })
                            .first(where: { $0 != "text" && $0 != "run" && $0 != "macro" }) {
                    let known = nested || path.last.map(["tap", "double", "triple"].contains) == true
                        ? ["text", "run", "macro"] : ["text", "run", "macro", "tap", "double", "triple"]
                    unknownField(bad, path: path + [bad], known: known, in: "an action table")
                } else {
                    error(value: path, "an action table has exactly one of \"text\", \"run\" or \"macro\"", hint: "use an array for a sequence: [{ text = \"a\" }, { run = [...] }]")
                }
                return nil
            }
            if key == "text" {
                guard let s = string(t["text"]!, path + ["text"]) else { return nil }
                do throws(ActionParser.Failure) {
                    return .text(try ActionParser.text(s))
                } catch {
                    self.error(value: path + ["text"], error.message, hint: error.hint)
                    return nil
                }
            }
            let argv = strings(t["run"]!, path + ["run"])
            guard !argv.isEmpty else {
                error(value: path + ["run"], "run needs a program and its arguments", hint: "e.g. { run = [\"notify-send\", \"hello\"] }")
                return nil
            }
            return .run(argv)
        default:
            error(value: path, "expected an action (a string like \"a\" or \"ctrl+c\", an array, or a table), found \(describe(v.type))",
                  hint: v.type == .int ? "quote it: \"\(v.int ?? 0)\" types that digit"
                      : "e.g. \"a\", \"ctrl+c\", [\"a\", \"b\"] or { text = \"hello\" }")
            return nil
        }
    }

    // MARK: Typed accessors

    mutating func string(_ value: TOMLValueConvertible, _ path: [String]) -> String? {
        let v = value.tomlValue
        if v.type == .string { return v.string }
        typeError(path, expected: "a string", found: v.type)
        return nil
    }

    mutating func strings(_ value: TOMLValueConvertible, _ path: [String]) -> [String] {
        let v = value.tomlValue
        guard v.type == .array, let array = v.array else {
            typeError(path, expected: "an array of strings", found: v.type)
            return []
        }
        var out: [String] = []
        for (i, element) in array.enumerated() {
            if let s = string(element, path + ["#\(i)"]) { out.append(s) }
        }
        return out
    }

    mutating func int(_ value: TOMLValueConvertible, _ path: [String]) -> Int? {
        let v = value.tomlValue
        if v.type == .int { return v.int }
        typeError(path, expected: "an integer", found: v.type)
        return nil
    }

    private mutating func number(_ value: TOMLValueConvertible, _ path: [String]) -> Double? {
        let v = value.tomlValue
        if v.type == .int { return v.int.map(Double.init) }
        if v.type == .double { return v.double }
        typeError(path, expected: "a number", found: v.type)
        return nil
    }

    mutating func bool(_ value: TOMLValueConvertible, _ path: [String]) -> Bool? {
        let v = value.tomlValue
        if v.type == .bool { return v.bool }
        typeError(path, expected: "true or false", found: v.type)
        return nil
    }

    mutating func table(_ value: TOMLValueConvertible, _ path: [String]) -> TOMLTable? {
        let v = value.tomlValue
        if v.type == .table { return v.table }
        typeError(path, expected: "a table", found: v.type)
        return nil
    }

    /// Table entries in source order (TOMLKit sorts them), so diagnostics follow the file.
    func sorted(_ t: TOMLTable, path: [String]) -> [(String, TOMLValueConvertible)] {
        t.map { ($0.0, $0.1) }.sorted { locator.rank(path + [$0.0]) < locator.rank(path + [$1.0]) }
    }

    func describe(_ type: TOMLType) -> String {
        switch type {
        case .int: "an integer"
        case .double: "a number"
        case .bool: "a boolean"
        case .string: "a string"
        case .array: "an array"
        case .table: "a table"
        default: "a date/time"
        }
    }

    // MARK: Reporting

    private mutating func typeError(_ path: [String], expected: String, found: TOMLType) {
        error(value: path, "\"\(path.last ?? "")\" must be \(expected), not \(describe(found))",
              hint: Self.example(of: expected, for: path))
    }

    /// How a value of the expected type is written, for type-error hints.
    static func example(of expected: String, for path: [String]) -> String {
        let key = path.last ?? "it"
        if key.hasPrefix("#") && expected == "a string" { return "quote every element: [\"a\", \"b\"]" }
        switch expected {
        case "a string": return "quote it: \(key) = \"...\""
        case "an array of strings": return "e.g. \(key) = [\"firefox\", \"chromium\"]"
        case "an integer": return "a whole number without quotes or a decimal point, e.g. \(key) = 300"
        case "a number": return "a number without quotes, e.g. \(key) = 1.5"
        case "true or false": return "without quotes: \(key) = true"
        case "a table": return "write a [\(path.joined(separator: "."))] section, or an inline table { ... }"
        default: return "see docs/keymaps.md"
        }
    }

    mutating func unknownField(_ key: String, path: [String], known: [String], in place: String) {
        error(key: path, "unknown field \"\(key)\" in \(place)",
              hint: Suggest.hint(key, in: known) ?? "known fields: " + known.joined(separator: ", "))
    }

    mutating func error(key path: [String], _ message: String, hint: String?) {
        report(locator.key(path), message, hint)
    }

    mutating func error(value path: [String], _ message: String, hint: String?) {
        report(locator.value(path), message, hint)
    }

    /// A problem at an exact place (inside a string value, e.g. a `[match]` pattern).
    mutating func error(at loc: SourceLocation, _ message: String, hint: String?) {
        report(loc, message, hint)
    }

    private mutating func report(_ loc: SourceLocation?, _ message: String, _ hint: String?) {
        let loc = loc ?? SourceLocation(file: locator.file, line: 1, column: 1)
        diagnostics.append(Diagnostic(location: loc, message: message, lineText: locator.lineText(loc.line), hint: hint))
    }
}
