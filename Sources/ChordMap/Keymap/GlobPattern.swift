/// A shell-style (fnmatch) pattern for `[match]` entries: `*` any run of characters, `?` one
/// character, `[abc]`, `[a-z]`, `[!abc]` (or `[^abc]`) one character of (or not of) a set,
/// `\x` the character `x` itself. No special meaning for `/` or a leading `.`. Matching is
/// case-insensitive (both sides lowercased) and whole-string: `firefox` matches only
/// `firefox`, `*fire*` anything containing it.
///
/// Cost: compiling is linear in the pattern; ``matches(_:)`` is O(pattern x text) in the
/// worst case and never backtracks exponentially: the classic two-pointer matcher keeps only
/// the position after the last `*` (every other token matches exactly one character, so
/// retrying from the last star alone is complete). With the bounds below that is at most
/// ``maximumLength`` x ``maximumTextLength`` steps, e.g. `*a*a*a*...b` against a long title.
public struct GlobPattern: Sendable, Equatable, CustomStringConvertible {
    /// Longer patterns are rejected when the keymap loads.
    public static let maximumLength = 256
    /// Longer texts (window titles) are matched on their first this many characters.
    public static let maximumTextLength = 1024

    enum Token: Sendable, Equatable {
        case literal(Unicode.Scalar)
        case any            // ?
        case star           // *
        case set(negated: Bool, items: [ClosedRange<Unicode.Scalar>])
    }

    public let description: String
    let tokens: [Token]
    /// Whether the pattern has no `*`, `?` or `[`: then matching is a plain comparison.
    public var isLiteral: Bool { !tokens.contains { if case .literal = $0 { false } else { true } } }

    /// Why a pattern cannot be compiled: a message and the 0-based character offset it is at.
    public struct Problem: Error, Equatable, Sendable {
        public var message: String
        public var offset: Int
        public var hint: String
    }

    public init(_ pattern: String) throws(Problem) {
        description = pattern
        let scalars = Array(pattern.lowercased().unicodeScalars)
        guard !scalars.isEmpty else {
            throw Problem(message: "an empty pattern matches nothing", offset: 0, hint: "write a name, or \"*\" for anything")
        }
        guard scalars.count <= Self.maximumLength else {
            throw Problem(message: "pattern is longer than \(Self.maximumLength) characters", offset: Self.maximumLength,
                          hint: "shorten it; \"*\" stands for any run of characters")
        }
        var tokens: [Token] = []
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case "*":
                if tokens.last != .star { tokens.append(.star) }   // `**` = `*`: fewer restart points
                i += 1
            case "?": tokens.append(.any); i += 1
            case "\\":
                guard i + 1 < scalars.count else {
                    throw Problem(message: "pattern ends with a lone backslash", offset: i, hint: "write \\\\ for a backslash itself")
                }
                tokens.append(.literal(scalars[i + 1])); i += 2
            case "[":
                let (token, next) = try Self.bracket(scalars, at: i)
                tokens.append(token); i = next
            default: tokens.append(.literal(c)); i += 1
            }
        }
        self.tokens = tokens
    }

    /// Parses `[...]` starting at `start` (the `[`); returns the set and the index after `]`.
    private static func bracket(_ s: [Unicode.Scalar], at start: Int) throws(Problem) -> (Token, Int) {
        var i = start + 1
        var negated = false
        if i < s.count, s[i] == "!" || s[i] == "^" { negated = true; i += 1 }
        var items: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while i < s.count {
            var c = s[i]
            if c == "]" && !first { return (.set(negated: negated, items: items), i + 1) }
            first = false
            if c == "\\", i + 1 < s.count { i += 1; c = s[i] }
            if i + 2 < s.count, s[i + 1] == "-", s[i + 2] != "]" {
                let upper = s[i + 2]
                guard c <= upper else {
                    throw Problem(message: "range \(c)-\(upper) is backwards", offset: i, hint: "write the lower end first: [\(upper)-\(c)]")
                }
                items.append(c...upper); i += 3
            } else {
                items.append(c...c); i += 1
            }
        }
        throw Problem(message: "\"[\" is not closed", offset: start, hint: "close the set with \"]\", or write \\[ for a bracket itself")
    }

    /// Whether the whole of `text` matches (case-insensitively; only its first
    /// ``maximumTextLength`` characters are looked at).
    public func matches(_ text: String) -> Bool {
        var t: [Unicode.Scalar] = []
        t.reserveCapacity(min(text.utf8.count, Self.maximumTextLength))
        for c in text.lowercased().unicodeScalars {
            if t.count == Self.maximumTextLength { break }
            t.append(c)
        }
        var p = 0, i = 0
        var starP = -1, starI = 0   // the token after the last `*`, and where in the text it was tried
        while i < t.count {
            if p < tokens.count, tokens[p] != .star, Self.one(tokens[p], t[i]) {
                p += 1; i += 1
            } else if p < tokens.count, tokens[p] == .star {
                starP = p + 1; starI = i; p += 1
            } else if starP >= 0 {
                starI += 1; i = starI; p = starP   // let the last `*` take one more character
            } else {
                return false
            }
        }
        while p < tokens.count, tokens[p] == .star { p += 1 }
        return p == tokens.count
    }

    private static func one(_ token: Token, _ c: Unicode.Scalar) -> Bool {
        switch token {
        case .literal(let l): return l == c
        case .any: return true
        case .star: return false
        case .set(let negated, let items): return items.contains { $0.contains(c) } != negated
        }
    }
}
