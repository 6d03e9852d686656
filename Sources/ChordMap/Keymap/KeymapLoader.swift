import TOMLKit

/// Reads, merges and validates keymaps.
///
/// ```swift
/// let keymap = try KeymapLoader.load(path: "~/.config/tapuinput/default.toml")
/// ```
///
/// Problems come back as one ``KeymapError`` listing every diagnostic found (syntax errors stop at
/// the first, because TOMLKit does). `extends` names another file, relative to the extending one,
/// or `"builtin"` for the embedded TapCode keymap; the chain is merged parent first, each file
/// overriding single chords, layers, options and mouse fields.
public enum KeymapLoader {
    /// A source and the name to report it under.
    public typealias Resolved = (source: String, file: String)
    /// Finds the text of an `extends` target: `(reference, extendingFile) -> source`, nil if absent.
    public typealias Resolver = (_ reference: String, _ from: String) -> Resolved?

    /// The name under which the embedded keymap appears in diagnostics and `extends`.
    public static let builtinName = "<builtin>"

    /// The text of the embedded TapCode keymap (`config/default.toml`), e.g. to show or copy it.
    public static var builtinSource: String { DefaultKeymap.source }

    /// The embedded TapCode keymap (`config/default.toml`).
    public static let builtinDefault: Keymap = {
        do {
            return try parse(source: DefaultKeymap.source, file: builtinName)
        } catch {
            // A test parses the embedded source, so this is unreachable in a tested build.
            fatalError("built-in keymap is invalid:\n\(error)")
        }
    }()

    /// Parses a keymap from text. `extends` may only name the built-in keymap.
    public static func parse(source: String, file: String = "<keymap>") throws(KeymapError) -> Keymap {
        try parse(source: source, file: file, resolve: { _, _ in nil })
    }

    /// Parses a keymap from text, resolving `extends` through `resolve`.
    public static func parse(source: String, file: String, resolve: @escaping Resolver) throws(KeymapError) -> Keymap {
        var context = LoadContext(resolve: resolve)
        let keymap = context.load(source: source, file: file)
        if !context.diagnostics.isEmpty { throw KeymapError(diagnostics: context.diagnostics) }
        return keymap!
    }

    /// Reads a keymap file (and the files it extends) from disk.
    ///
    /// A file that is not valid UTF-8 is an error at its first bad byte; the rest is still
    /// checked (bad bytes read as U+FFFD), so every problem is reported at once.
    public static func load(path: String) throws(KeymapError) -> Keymap {
        var invalid: [Diagnostic] = []
        guard let source = readText(path, invalid: &invalid) else {
            throw KeymapError(diagnostics: [Diagnostic(location: SourceLocation(file: path, line: 1, column: 1),
                                                       message: "cannot read keymap file", lineText: "",
                                                       hint: "check the path and its permissions")])
        }
        let result = Result { () throws(KeymapError) in
            try parse(source: source, file: path) { reference, from in
                let target = PathName.resolve(reference, relativeTo: from)
                return readText(target, invalid: &invalid).map { ($0, target) }
            }
        }
        if !invalid.isEmpty {
            throw KeymapError(diagnostics: invalid + result.failureDiagnostics)
        }
        return try result.get()
    }

    /// A file's text, with a diagnostic appended to `invalid` if it is not valid UTF-8.
    static func readText(_ path: String, invalid: inout [Diagnostic]) -> String? {
        guard let bytes = readBytes(path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if let bad = firstInvalidUTF8(bytes) {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            let hex = String(bad.byte, radix: 16, uppercase: true)
            invalid.append(Diagnostic(
                location: SourceLocation(file: path, line: bad.line, column: bad.column),
                message: "the file is not valid UTF-8 (byte 0x\(hex.count == 1 ? "0" : "")\(hex))",
                lineText: bad.line <= lines.count ? String(lines[bad.line - 1]) : "",
                hint: "keymaps are UTF-8 text; save the file as UTF-8"))
        }
        return text
    }

    static func isBuiltinReference(_ reference: String) -> Bool {
        ["builtin", "builtin:default", "default", builtinName].contains(reference.lowercased())
    }
}

/// One load: the `extends` chain, the diagnostics, and the validation of the merged result.
struct LoadContext {
    let resolve: KeymapLoader.Resolver
    var diagnostics: [Diagnostic] = []
    var locators: [String: SourceLocator] = [:]

    init(resolve: @escaping KeymapLoader.Resolver) { self.resolve = resolve }

    mutating func load(source: String, file: String) -> Keymap? {
        var chain: [KeymapDocument] = []
        var next: KeymapLoader.Resolved? = (source, file)
        var visited: [String] = []
        while let (text, name) = next {
            visited.append(name)
            guard let doc = document(text, file: name) else { return nil }
            chain.insert(doc, at: 0)
            next = nil
            guard let parent = doc.extends else { break }
            let reference = parent.value
            let resolved: KeymapLoader.Resolved? = KeymapLoader.isBuiltinReference(reference)
                ? (DefaultKeymap.source, KeymapLoader.builtinName) : resolve(reference, name)
            guard let resolved else {
                report(parent.location, "cannot find the keymap \"\(reference)\" named by extends",
                       hint: "give a path relative to this file, or \"builtin\" for the built-in TapCode keymap")
                return nil
            }
            if visited.contains(resolved.file) {
                report(parent.location, "inheritance cycle: " + (visited + [resolved.file]).joined(separator: " -> "),
                       hint: "remove extends from one of these files")
                return nil
            }
            next = resolved
        }
        var keymap = merge(chain)
        keymap?.files = visited.filter { $0 != KeymapLoader.builtinName }
        return keymap
    }

    /// Parses and decodes one file; nil (with diagnostics) if it has errors.
    private mutating func document(_ text: String, file: String) -> KeymapDocument? {
        let locator = SourceLocator(source: text, file: file)
        locators[file] = locator
        if let bad = locator.badHeader {
            report(bad, "TOML syntax: a table name must start with a letter, digit, _, - or a quote",
                   hint: "table headers look like [layers.base]")
            return nil
        }
        if let deep = locator.tooDeep {
            report(deep, "values nested more than \(SourceLocator.maximumNesting) levels deep",
                   hint: "a keymap nests arrays and inline tables a few levels at most; look for a stray [ or {")
            return nil
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            let loc = SourceLocation(file: file, line: e.source.begin.line, column: e.source.begin.column)
            report(loc, "TOML syntax: \(e.description)", hint: Self.syntaxHint(e.description))
            return nil
        } catch {
            report(SourceLocation(file: file, line: 1, column: 1), "TOML syntax: \(error)", hint: "see https://toml.io for the syntax")
            return nil
        }
        var decoder = KeymapDecoder(locator: locator)
        let doc = decoder.decode(table)
        diagnostics += decoder.diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        return decoder.diagnostics.isEmpty ? doc : nil
    }

    /// Merges parent-first and validates: base exists, layer names resolve, every layer is reachable,
    /// commands only when allowed.
    private mutating func merge(_ chain: [KeymapDocument]) -> Keymap? {
        var options = KeymapOptions()
        var mouse = MouseSettings()
        var match = KeymapMatch()
        var hands = HandRoles()
        var name = chain.last!.file
        var gestures: [Int: Located<Action>] = [:]
        var layers: [LayerDocument] = []
        var aliases: [String: Located<Action>] = [:]
        var feedback = FeedbackSettings()
        for doc in chain {
            aliases.merge(doc.aliases) { _, child in child }
            for set in doc.feedback { set(&feedback) }
            if let n = doc.name { name = n }
            if let w = doc.multiTapWindowMs { options.multiTapWindowMs = w }
            if let w = doc.comboWindowMs { options.comboWindowMs = w }
            if let w = doc.sequenceWindowMs { options.sequenceWindowMs = w }
            if let h = doc.hands { hands = h }
            if let c = doc.allowCommands { options.allowCommands = c }
            if let l = doc.layout { options.layout = l }
            if let u = doc.unicode { options.unicode = u }
            for set in doc.mouse { set(&mouse) }
            if let m = doc.match { match = m }
            gestures.merge(doc.gestures) { _, child in child }
            for layer in doc.layers {
                if let i = layers.firstIndex(where: { $0.name == layer.name }) {
                    layers[i].bindings.merge(layer.bindings) { _, child in child }
                    layers[i].handBindings.merge(layer.handBindings) { _, child in child }
                    layers[i].sequences.merge(layer.sequences) { _, child in child }
                    if let f = layer.fallsThrough { layers[i].fallsThrough = f }
                    layers[i].mergeOptions(from: layer)
                } else {
                    layers.append(layer)
                }
            }
        }
        guard let baseIndex = layers.firstIndex(where: { $0.name == "base" }) else {
            let file = chain.last!.file
            report(SourceLocation(file: file, line: 1, column: 1), "the keymap has no [layers.base] table",
                   hint: "every keymap needs a base layer, or extends = \"builtin\" to start from the TapCode layout")
            return nil
        }
        layers.insert(layers.remove(at: baseIndex), at: 0)
        let names = layers.map(\.name)
        resolveAliases(aliases, layers: &layers, gestures: &gestures)

        // Every action's layer references, with where the action is written.
        var references: [(from: String?, to: String, at: SourceLocation)] = []
        for layer in layers {
            for (location, actions) in layer.locatedActions.sorted(by: { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }) {
                for a in actions { references += a.layerReferences.map { (layer.name, $0, location) } }
            }
        }
        for (_, g) in gestures.sorted(by: { $0.key < $1.key }) {
            references += g.value.layerReferences.map { (nil, $0, g.location) }
        }
        for r in references where !names.contains(r.to) {
            report(r.at, "unknown layer \"\(r.to)\"", hint: Suggest.hint(r.to, in: names) ?? "defined layers: " + names.joined(separator: ", "))
        }
        var reachable: Set<String> = ["base"]
        var frontier = ["base"]
        for r in references where r.from == nil { if reachable.insert(r.to).inserted { frontier.append(r.to) } }
        while let layer = frontier.popLast() {
            for r in references where r.from == layer && reachable.insert(r.to).inserted { frontier.append(r.to) }
        }
        for layer in layers where !reachable.contains(layer.name) {
            report(layer.header, "layer \"\(layer.name)\" is unreachable: no chord or gesture switches to it",
                   hint: "bind layer(\(layer.name)) or toggle(\(layer.name)) in a reachable layer, or delete it")
        }
        if !options.allowCommands {
            let runs = layers.flatMap { $0.locatedActions.filter { $0.actions.contains(where: \.runsCommand) }.map(\.location) }
                + gestures.values.filter { $0.value.runsCommand }.map(\.location)
                + layers.flatMap(\.hooks).filter { $0.value.runsCommand }.map(\.location)
            for r in runs.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
                report(r, "this keymap runs a command, but commands are disabled",
                       hint: "add allow-commands = true under [options] if you trust this keymap")
            }
        }
        guard diagnostics.isEmpty else { return nil }
        var characterLocations: [Character: SourceLocation] = [:]
        let located = layers.flatMap { $0.locatedActions.map { ($0.location, $0.actions) } }
            + gestures.values.map { ($0.location, [$0.value]) }
        for (location, actions) in located.sorted(by: { ($0.0.line, $0.0.column) < ($1.0.line, $1.0.column) }) {
            for c in actions.flatMap(\.characters) where characterLocations[c] == nil { characterLocations[c] = location }
        }
        var keymap = Keymap(
            name: name,
            layers: layers.map { l in
                var layer = Layer(name: l.name, fallsThrough: l.fallsThrough ?? true, bindings: l.bindings.mapValues(\.value),
                                  handBindings: l.handBindings.mapValues(\.value), sequences: l.sequences.mapValues(\.value))
                l.applyOptions(to: &layer)
                return layer
            },
            options: options, mouse: mouse, gestures: gestures.mapValues(\.value), match: match)
        keymap.characterLocations = characterLocations
        keymap.hands = hands
        keymap.feedback = feedback
        return keymap
    }

    /// A hint for the TOML mistakes keymap authors make most.
    static func syntaxHint(_ description: String) -> String {
        let d = description.lowercased()
        if d.contains("key") && (d.contains("bare") || d.contains("parsing key")) {
            return "chord keys must be quoted: \"x.x..\" = \"d\""
        }
        if d.contains("redefine") { return "each table may appear only once; merge the two sections" }
        if d.contains("string") { return "strings need matching quotes; a backslash in \"...\" starts an escape (use '\\' for one)" }
        return "see https://toml.io for the syntax"
    }

    mutating func report(_ loc: SourceLocation, _ message: String, hint: String?) {
        let line = locators[loc.file]?.lineText(loc.line) ?? ""
        diagnostics.append(Diagnostic(location: loc, message: message, lineText: line, hint: hint))
    }
}

extension Result where Failure == KeymapError {
    var failureDiagnostics: [Diagnostic] {
        if case .failure(let e) = self { e.diagnostics } else { [] }
    }
}

/// Path joining for `extends` (no Foundation): relative references resolve against the extending
/// file's directory; `.` and `..` are folded so a cycle is recognised whatever the spelling.
enum PathName {
    static func resolve(_ reference: String, relativeTo file: String) -> String {
        if reference.hasPrefix("/") { return normalize(reference) }
        let dir = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return normalize(dir.isEmpty ? reference : dir + "/" + reference)
    }

    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for p in path.split(separator: "/", omittingEmptySubsequences: true) {
            if p == "." { continue }
            if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(p)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }
}
