import Foundation
import Testing
@testable import ChordMap

/// Engine behaviour as text fixtures (`Fixtures/engine/*.t`), in the spirit of keyd's `t/*.t`.
///
/// A fixture has sections introduced by `--- NAME` lines:
/// - `--- keymap` (optional): a TOML keymap; without it the built-in TapCode keymap is used.
/// - `--- script`: a ``Simulator`` script.
/// - `--- output`: the expected event lines, or `--- text`: the expected typed text.
/// Lines before the first section are a free-form description.
struct Fixture: CustomTestStringConvertible, Sendable {
    var name: String
    var keymap: String?
    var script: String
    var expected: String
    var textMode: Bool

    var testDescription: String { name }

    static let directory: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func all(in subdirectory: String) -> [Fixture] {
        let dir = directory.appendingPathComponent(subdirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".t") }.sorted().map { name in
            let text = try! String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            return Fixture(name: name, text: text)
        }
    }

    init(name: String, text: String) {
        self.name = name
        var sections: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--- ") {
                current = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
                sections[current!] = ""
            } else if let c = current {
                sections[c]! += line + "\n"
            }
        }
        keymap = sections["keymap"]
        script = sections["script"] ?? ""
        textMode = sections["text"] != nil
        let raw = sections["text"] ?? sections["output"] ?? ""
        // Trailing blank lines in the file are layout, not expected output.
        var trimmed = raw
        while trimmed.hasSuffix("\n\n") { trimmed.removeLast() }
        expected = textMode && trimmed.hasSuffix("\n") ? String(trimmed.dropLast()) : trimmed
    }
}

@Suite("Engine fixtures")
struct FixtureTests {
    @Test("fixture", arguments: Fixture.all(in: "engine"))
    func run(_ fixture: Fixture) throws {
        let keymap = try fixture.keymap.map { try KeymapLoader.parse(source: $0, file: fixture.name) } ?? KeymapLoader.builtinDefault
        let actual = try Simulator.run(script: fixture.script, keymap: keymap, characters: TestLayout.us, text: fixture.textMode ? TestLayout.usDecoder() : nil)
        #expect(actual == fixture.expected, "\(fixture.name)")
    }

    @Test func thereAreManyFixtures() {
        #expect(Fixture.all(in: "engine").count >= 30)
    }
}
