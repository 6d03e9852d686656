import TOMLKit

extension KeymapDecoder {
    /// A `[match]` list: an array of strings, each a valid ``GlobPattern``. A bad pattern is
    /// reported at the character it goes wrong at (file:line:column) and left out.
    mutating func patterns(_ value: TOMLValueConvertible, _ path: [String]) -> [String] {
        var out: [String] = []
        for (i, entry) in strings(value, path).enumerated() {
            do {
                _ = try GlobPattern(entry)
                out.append(entry)
            } catch let problem {
                self.error(at: patternLocation(path + ["#\(i)"], entry, offset: problem.offset),
                           "bad pattern \"\(entry)\" in [match] \(path.last ?? ""): \(problem.message)", hint: problem.hint)
            }
        }
        return out
    }

    /// Where character `offset` of a pattern is: inside the quotes when the source spells the
    /// pattern as it is (no TOML escapes before that point), else the string's start.
    private func patternLocation(_ path: [String], _ pattern: String, offset: Int) -> SourceLocation {
        let fallback = locator.value(path) ?? SourceLocation(file: locator.file, line: 1, column: 1)
        let line = Array(locator.lineText(fallback.line))
        let start = fallback.column   // 1-based column of the opening quote; the text starts after it
        let prefix = Array(pattern.prefix(offset))
        guard start - 1 < line.count, start + prefix.count <= line.count,
              Array(line[start..<(start + prefix.count)]) == prefix else { return fallback }
        return SourceLocation(file: locator.file, line: fallback.line, column: start + 1 + offset)
    }
}
