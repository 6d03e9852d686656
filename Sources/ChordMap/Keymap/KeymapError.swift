/// One problem in a keymap, with where it is and how to fix it.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    /// The source line the problem is on (quoted under the message).
    public var lineText: String
    public var hint: String?

    public init(location: SourceLocation, message: String, lineText: String, hint: String? = nil) {
        self.location = location
        self.message = message
        self.lineText = lineText
        self.hint = hint
    }

    /// gcc-style, so editors can jump to it:
    ///
    /// ```
    /// my.toml:12:11: error: unknown key name "entr"
    ///    12 | "x..xx" = "entr"
    ///       |           ^~~~~~
    ///    hint: did you mean "enter", "end"?
    /// ```
    public var description: String {
        let l = location
        var s = "\(l.file):\(l.line):\(l.column): error: \(message)"
        if !lineText.isEmpty {
            let number = String(l.line)
            let pad = String(repeating: " ", count: number.count)
            // Keep tabs in the caret line so the caret lines up under tab-indented text.
            let prefix = String(lineText.prefix(max(0, l.column - 1)).map { $0 == "\t" ? "\t" : " " })
            let width = max(1, min(l.length, max(1, lineText.count - (l.column - 1))))
            s += "\n   \(number) | \(lineText)\n   \(pad) | \(prefix)^\(String(repeating: "~", count: width - 1))"
        }
        if let hint { s += "\n   hint: \(hint)" }
        return s
    }
}

/// Everything wrong with a keymap, in file order. Loading reports all problems it can find at once.
public struct KeymapError: Error, Equatable, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// "Did you mean" helpers.
enum Suggest {
    /// Up to `limit` candidates closest to `word` by edit distance, closest first; only those close
    /// enough to be plausible typos (distance <= max(2, word.count / 3)), or sharing its prefix.
    static func nearest(_ word: String, in candidates: [String], limit: Int = 3) -> [String] {
        let w = word.lowercased()
        let budget = max(2, w.count / 3)
        let scored = candidates.compactMap { c -> (String, Int)? in
            let d = distance(w, c.lowercased())
            if d <= budget { return (c, d) }
            if w.count >= 3 && c.lowercased().hasPrefix(w) { return (c, budget + 1) }
            if w.count >= 3 && isAbbreviation(w, of: c.lowercased()) { return (c, budget + 2) }
            return nil
        }
        return scored.sorted { ($0.1, $0.0.count, $0.0) < ($1.1, $1.0.count, $1.0) }.prefix(limit).map(\.0)
    }

    /// `did you mean "a", "b"?` or nil.
    static func hint(_ word: String, in candidates: [String]) -> String? {
        let n = nearest(word, in: candidates)
        return n.isEmpty ? nil : "did you mean " + n.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
    }

    /// True if `short` is `long` with letters left out, e.g. "dbl" for "double".
    static func isAbbreviation(_ short: String, of long: String) -> Bool {
        guard short.first == long.first else { return false }
        var rest = long[...]
        for c in short {
            guard let i = rest.firstIndex(of: c) else { return false }
            rest = rest[rest.index(after: i)...]
        }
        return true
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var prev = row[0]
            row[0] = i
            for j in 1...b.count {
                let cur = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = cur
            }
        }
        return row[b.count]
    }
}
