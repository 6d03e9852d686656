/// A place in a keymap file: 1-based line and column, and how many characters the offending text
/// spans on that line (for the caret underline).
public struct SourceLocation: Equatable, Sendable {
    public var file: String
    public var line: Int
    public var column: Int
    public var length: Int

    public init(file: String, line: Int, column: Int, length: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
        self.length = max(1, length)
    }
}

/// Maps TOML paths to where they are written, because TOMLKit only reports positions for syntax
/// errors. A small, lenient TOML scanner: it runs only on text TOMLKit has already accepted, so it
/// need not reject anything; it records where each key, value, array element and table header starts.
///
/// Paths are the table path plus the key: `["layers", "base", "x...."]`. Array elements append
/// `"#0"`, `"#1"`, ...; array-of-tables headers (`[[x]]`) append `"#n"` the same way.
struct SourceLocator {
    let file: String
    let lines: [String]
    private var keys: [String: SourceLocation] = [:]
    private var values: [String: SourceLocation] = [:]
    /// Key paths in source order per table, so "unknown field" reports come out in file order.
    private(set) var order: [String: Int] = [:]
    /// A table header whose name starts with a character no key can start with (`[,x]`).
    /// toml++ asserts on this in debug builds instead of reporting it, so the loader reports it
    /// first and never hands such text to TOMLKit.
    private(set) var badHeader: SourceLocation?
    /// The first array or inline table nested deeper than ``maximumNesting``. Scanning stops
    /// there and the loader reports it, so neither this scanner nor toml++ recurses without bound
    /// (a few kilobytes of `[[[[...` took minutes and could overflow the stack).
    private(set) var tooDeep: SourceLocation?
    /// How deep arrays and inline tables may nest; a keymap needs three levels at most.
    static let maximumNesting = 32

    init(source: String, file: String) {
        self.file = file
        // "\r\n" is one Character in Swift, so split on scalars' newline property, not on "\n".
        self.lines = source.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        var scanner = Scanner(chars: Array(source.unicodeScalars), file: file)
        scanner.run()
        keys = scanner.keys
        values = scanner.values
        order = scanner.order
        badHeader = scanner.badHeader
        tooDeep = scanner.tooDeep
    }

    static func id(_ path: [String]) -> String { path.joined(separator: "\u{1F}") }

    /// Where the key (or table header) at `path` is written.
    func key(_ path: [String]) -> SourceLocation? { keys[Self.id(path)] }
    /// Where the value at `path` starts; falls back to the key.
    func value(_ path: [String]) -> SourceLocation? { values[Self.id(path)] ?? keys[Self.id(path)] }
    /// Source order of a path (for sorting); unknown paths sort last.
    func rank(_ path: [String]) -> Int { order[Self.id(path)] ?? Int.max }

    /// The text of a 1-based line, or "" past the end.
    func lineText(_ line: Int) -> String { line >= 1 && line <= lines.count ? lines[line - 1] : "" }
}

private struct Scanner {
    let chars: [Unicode.Scalar]
    let file: String
    var i = 0
    var line = 1
    var column = 1
    var keys: [String: SourceLocation] = [:]
    var values: [String: SourceLocation] = [:]
    var order: [String: Int] = [:]
    var arrayTableCounts: [String: Int] = [:]
    var badHeader: SourceLocation?
    var tooDeep: SourceLocation?

    init(chars: [Unicode.Scalar], file: String) {
        self.chars = chars
        self.file = file
    }

    var atEnd: Bool { i >= chars.count }
    var current: Unicode.Scalar? { atEnd ? nil : chars[i] }
    func peek(_ offset: Int) -> Unicode.Scalar? { i + offset < chars.count ? chars[i + offset] : nil }

    mutating func advance() {
        guard !atEnd else { return }
        if chars[i] == "\n" { line += 1; column = 1 } else { column += 1 }
        i += 1
    }

    mutating func skipSpaces() { while let c = current, c == " " || c == "\t" || c == "\r" { advance() } }

    /// Spaces, newlines and comments (inside arrays and between statements).
    mutating func skipBlank() {
        while let c = current {
            if c == " " || c == "\t" || c == "\r" || c == "\n" { advance() }
            else if c == "#" { while let d = current, d != "\n" { advance() } }
            else { break }
        }
    }

    mutating func record(_ map: WritableKeyPath<Scanner, [String: SourceLocation]>, _ path: [String], line: Int, column: Int, length: Int) {
        // Dotted keys and headers nest too (`[a.a.a....]`): each record costs its path's length
        // squared, so a path longer than any keymap needs stops the scan like deep values do.
        guard path.count <= 2 * SourceLocator.maximumNesting else {
            if tooDeep == nil { tooDeep = SourceLocation(file: file, line: line, column: column) }
            i = chars.count
            return
        }
        for n in 1..<max(1, path.count) where order[SourceLocator.id(Array(path.prefix(n)))] == nil {
            order[SourceLocator.id(Array(path.prefix(n)))] = order.count
        }
        let id = SourceLocator.id(path)
        if self[keyPath: map][id] == nil { self[keyPath: map][id] = SourceLocation(file: file, line: line, column: column, length: length) }
        if order[id] == nil { order[id] = order.count }
    }

    mutating func run() {
        var table: [String] = []
        while tooDeep == nil {
            skipBlank()
            guard let c = current else { return }
            if c == "[" {
                let isArray = peek(1) == "["
                advance(); if isArray { advance() }
                skipSpaces()
                if let k = current, badHeader == nil,
                   !((k.isASCII && k.properties.isAlphabetic) || ("0"..."9").contains(k) || k == "_" || k == "-" || k == "\"" || k == "'" || k == "]") {
                    badHeader = SourceLocation(file: file, line: line, column: column)
                }
                let (path, start) = dottedKey()
                let (l, col, len) = start
                if isArray {
                    let id = SourceLocator.id(path)
                    let n = arrayTableCounts[id, default: 0]
                    arrayTableCounts[id] = n + 1
                    table = path + ["#\(n)"]
                } else {
                    table = path
                }
                record(\.keys, table, line: l, column: col, length: len)
                while let d = current, d != "\n" { advance() }
            } else {
                let (path, start) = dottedKey()
                record(\.keys, table + path, line: start.0, column: start.1, length: start.2)
                skipSpaces()
                if current == "=" { advance() }
                skipSpaces()
                value(table + path)
                while let d = current, d != "\n" { advance() }   // trailing comment
            }
        }
    }

    /// Reads `a."b c".d`; returns the components and where the last one starts and how long it is.
    mutating func dottedKey() -> ([String], (Int, Int, Int)) {
        var parts: [String] = []
        var start = (line, column, 1)
        while let c = current {
            start = (line, column, 1)
            let before = i
            if c == "\"" || c == "'" {
                parts.append(quoted(c))
            } else {
                var s = ""
                while let d = current, d.properties.isAlphabetic || ("0"..."9").contains(d) || d == "_" || d == "-" {
                    s.unicodeScalars.append(d); advance()
                }
                if s.isEmpty { break }
                parts.append(s)
            }
            start.2 = i - before
            skipSpaces()
            if current == "." { advance(); skipSpaces() } else { break }
        }
        return (parts, start)
    }

    /// A single-line quoted key or string; returns its unescaped content (common escapes only).
    mutating func quoted(_ quote: Unicode.Scalar) -> String {
        advance()
        var s = ""
        while let c = current, c != quote, c != "\n" {
            if c == "\\" && quote == "\"" {
                advance()
                switch current {
                case "n": s += "\n"
                case "t": s += "\t"
                case "r": s += "\r"
                case "b": s += "\u{8}"
                case "f": s += "\u{C}"
                case "u", "U":
                    // \uXXXX / \UXXXXXXXX, so an escaped key is found where it is written.
                    let width = current == "u" ? 4 : 8
                    var hex = ""
                    for k in 1...width { if let d = peek(k), d.properties.isASCIIHexDigit { hex.unicodeScalars.append(d) } }
                    if hex.count == width, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) {
                        s.unicodeScalars.append(scalar)
                        for _ in 0..<width { advance() }
                    }
                case .some(let e): s.unicodeScalars.append(e)
                case nil: break
                }
                advance()
                continue
            }
            s.unicodeScalars.append(c); advance()
        }
        advance()
        return s
    }

    mutating func value(_ path: [String], depth: Int = 0) {
        let (l, col, start) = (line, column, i)
        guard let c = current, tooDeep == nil else { return }
        if (c == "[" || c == "{") && depth >= SourceLocator.maximumNesting {
            tooDeep = SourceLocation(file: file, line: l, column: col)
            i = chars.count   // stop: nothing after this is scanned
            return
        }
        switch c {
        case "\"", "'":
            if peek(1) == c && peek(2) == c {
                advance(); advance(); advance()
                while !atEnd && !(current == c && peek(1) == c && peek(2) == c) {
                    if current == "\\" && c == "\"" { advance() }
                    advance()
                }
                advance(); advance(); advance()
            } else {
                _ = quoted(c)
            }
        case "[":
            advance()
            var n = 0
            while true {
                skipBlank()
                guard let d = current, d != "]" else { break }
                value(path + ["#\(n)"], depth: depth + 1)
                n += 1
                skipBlank()
                if current == "," { advance() }
                else if current != "]" { break }
            }
            advance()
        case "{":
            advance()
            while true {
                skipSpaces()
                guard let d = current, d != "}", d != "\n" else { break }
                let (sub, s) = dottedKey()
                if sub.isEmpty { break }
                record(\.keys, path + sub, line: s.0, column: s.1, length: s.2)
                skipSpaces()
                if current == "=" { advance() }
                skipSpaces()
                value(path + sub, depth: depth + 1)
                skipSpaces()
                if current == "," { advance() }
            }
            advance()
        default:
            while let d = current, d != ",", d != "]", d != "}", d != "\n", d != "#" { advance() }
        }
        // Underline only what is on the value's first line.
        var length = 0
        var k = start
        while k < i && chars[k] != "\n" { length += 1; k += 1 }
        while length > 1 && (chars[start + length - 1] == " " || chars[start + length - 1] == "\r") { length -= 1 }
        record(\.values, path, line: l, column: col, length: length)
    }
}
