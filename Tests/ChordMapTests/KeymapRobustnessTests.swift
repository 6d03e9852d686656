import Foundation
import Testing
@testable import ChordMap

/// Bad keymaps at the edges: huge files, deep and cyclic `extends` chains, invalid UTF-8 on disk,
/// and every TOML type in every field. Each must end in a keymap or in a ``KeymapError`` whose
/// diagnostics name file:line:column with a message and a hint; never a trap or a hang.
@Suite("Keymap robustness")
struct KeymapRobustnessTests {
    /// Asserts `error` is well formed and returns its first diagnostic.
    @discardableResult
    static func wellFormed(_ error: KeymapError, _ context: String) -> Diagnostic? {
        #expect(!error.diagnostics.isEmpty, "\(context): an error without diagnostics")
        for d in error.diagnostics {
            #expect(d.location.line >= 1 && d.location.column >= 1, "\(context): \(d)")
            #expect(!d.message.isEmpty, "\(context): \(d)")
            #expect(d.hint?.isEmpty == false, "\(context): no hint: \(d)")
        }
        return error.diagnostics.first
    }

    // MARK: Huge files

    /// 100,000 lines, about 5 MB: a `[match]` list of 100,000 apps, each line padded with a
    /// comment. Loads in bounded time (the test finishes) and keeps every element.
    @Test func aHugeKeymapLoads() throws {
        let source = Self.huge(lines: 100_000, last: "\"app-last\",")
        #expect(source.utf8.count > 5_000_000)
        let k = try KeymapLoader.parse(source: source, file: "huge.toml")
        #expect(k.match.apps.count == 100_001)
        #expect(k.match.apps.last == "app-last")
    }

    /// A 1 MB file with a wrong element on its last line: the error names that line. (20,000
    /// lines: the 5 MB load above already shows size is linear; this one is about position.)
    @Test func aHugeKeymapWithAnErrorOnTheLastLineNamesIt() {
        let source = Self.huge(lines: 20_000, last: "42,")
        let lastLine = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("42,") }! + 1
        do {
            _ = try KeymapLoader.parse(source: source, file: "huge.toml")
            Issue.record("expected an error")
        } catch {
            let first = Self.wellFormed(error, "huge")
            #expect(first?.location.line == lastLine, "\(first.map { "\($0)" } ?? "")")
            #expect(first?.location.column == 1)
            #expect(first?.message.contains("must be a string") == true)
        }
    }

    /// A syntax error deep in a huge file is reported at its line too (TOML parser position).
    @Test func aHugeKeymapWithASyntaxErrorNamesItsLine() {
        var source = Self.huge(lines: 20_000, last: "\"x\",")
        source = source.replacingOccurrences(of: "\"app-19999\",", with: "\"app-19999\" = ,")
        do {
            _ = try KeymapLoader.parse(source: source, file: "huge.toml")
            Issue.record("expected an error")
        } catch {
            let first = Self.wellFormed(error, "huge syntax")
            let expected = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("app-19999\" =") }! + 1
            #expect(first?.location.line == expected)
            #expect(first?.message.hasPrefix("TOML syntax") == true)
        }
    }

    static func huge(lines: Int, last: String) -> String {
        var s = "[layers.base]\n\"x....\" = \"a\"\n[match]\napps = [\n"
        s.reserveCapacity(lines * 52)
        let pad = String(repeating: "-", count: 36)
        for i in 0..<lines { s += "\"app-\(i)\", # \(pad)\n" }
        return s + last + "\n]\n"
    }

    // MARK: extends chains

    /// Files k0 ... k199, each extending the next; k199 has the base layer. Every level overrides
    /// `name`; the chord bound only at the root survives, the child's override wins.
    @Test func aChainOf200ParentsLoads() throws {
        var files: [String: String] = [:]
        for i in 0..<200 {
            files["k\(i).toml"] = i == 199
                ? "name = \"k199\"\n[layers.base]\n\"x....\" = \"a\"\n\".x...\" = \"b\"\n"
                : "extends = \"k\(i + 1).toml\"\nname = \"k\(i)\"\n[layers.base]\n\".x...\" = \"\(i % 10)\"\n"
        }
        let k = try KeymapLoader.parse(source: files["k0.toml"]!, file: "k0.toml") { ref, _ in files[ref].map { ($0, ref) } }
        #expect(k.name == "k0")
        #expect(k.layers[0][Chord(rawValue: 1)!]?.tap == .character("a", modifiers: []))
        #expect(k.layers[0][Chord(rawValue: 2)!]?.tap == .character("0", modifiers: []))
    }

    @Test(arguments: [2, 3, 50, 200])
    func aCycleIsReportedWithTheWholeChain(length: Int) {
        var files: [String: String] = [:]
        for i in 0..<length {
            files["c\(i).toml"] = "# level \(i)\nextends = \"c\((i + 1) % length).toml\"\n[layers.base]\n\"x....\" = \"a\"\n"
        }
        do {
            _ = try KeymapLoader.parse(source: files["c0.toml"]!, file: "c0.toml") { ref, _ in files[ref].map { ($0, ref) } }
            Issue.record("expected an inheritance cycle")
        } catch {
            let first = Self.wellFormed(error, "cycle \(length)")
            let chain = (0..<length).map { "c\($0).toml" } + ["c0.toml"]
            #expect(first?.message == "inheritance cycle: " + chain.joined(separator: " -> "))
            // Reported where the cycle closes: the last file's extends line.
            #expect(first?.location.file == "c\(length - 1).toml")
            #expect(first?.location.line == 2 && first?.location.column == 11)
        }
    }

    @Test func aFileExtendingItselfIsACycle() {
        do {
            _ = try KeymapLoader.parse(source: "extends = \"me.toml\"\n", file: "me.toml") { ref, _ in ("extends = \"me.toml\"\n", ref) }
            Issue.record("expected an inheritance cycle")
        } catch {
            #expect(Self.wellFormed(error, "self")?.message == "inheritance cycle: me.toml -> me.toml")
        }
    }

    /// On disk, a cycle spelled through `./` and `../` is still found (paths are normalised).
    @Test func aCycleOnDiskSpelledDifferentlyIsFound() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "extends = \"./sub/b.toml\"\n".write(to: dir.appendingPathComponent("a.toml"), atomically: true, encoding: .utf8)
        try "extends = \"../sub/../a.toml\"\n".write(to: dir.appendingPathComponent("sub/b.toml"), atomically: true, encoding: .utf8)
        do {
            _ = try KeymapLoader.load(path: dir.appendingPathComponent("a.toml").path)
            Issue.record("expected an inheritance cycle")
        } catch {
            let first = Self.wellFormed(error, "disk cycle")
            #expect(first?.message.hasPrefix("inheritance cycle: ") == true)
            #expect(first?.location.file.hasSuffix("sub/b.toml") == true)
        }
    }

    // MARK: Invalid UTF-8 on disk

    /// Bytes that are not UTF-8 (a Latin-1 é, a lone continuation byte, a truncated sequence,
    /// an overlong encoding, a surrogate) are reported at their line and column, read from a real
    /// file through `load(path:)`, in the file itself and in a file it extends.
    @Test(arguments: [[0xE9] as [UInt8], [0x80], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF, 0xFE]])
    func invalidUTF8IsAPositionedError(_ bad: [UInt8]) throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = Array("[layers.base]\n\"x....\" = \"a\"\n# caf".utf8) + bad + Array(" comment\n\".x...\" = \"b\"\n".utf8)
        let path = dir.appendingPathComponent("bad.toml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for (file, label) in [(path, "direct"), (try Self.child(extending: "bad.toml", in: dir), "parent")] {
            do {
                _ = try KeymapLoader.load(path: file)
                Issue.record("\(label): expected an error for \(bad)")
            } catch {
                let first = Self.wellFormed(error, "\(label) \(bad)")
                #expect(first?.location.file == path)
                #expect(first?.location.line == 3 && first?.location.column == 6, "\(first.map { "\($0)" } ?? "")")
                #expect(first?.message.contains("not valid UTF-8") == true)
                #expect(first?.lineText.hasPrefix("# caf") == true)
            }
        }
    }

    @Test func validUTF8OnDiskStillLoads() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ok.toml").path
        try "# café ✓ 👍\nname = \"clavier é\"\n[layers.base]\n\"x....\" = \"a\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try KeymapLoader.load(path: path).name == "clavier é")
    }

    static func child(extending parent: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("child.toml").path
        try "extends = \"\(parent)\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keymap-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
