import Testing
@testable import ChordMap

/// Every TOML value type in every keymap field: a value of the wrong type (or out of range) is a
/// positioned error on the value's line, with a hint, never a crash or a silent default.
@Suite("Keymap type confusion")
struct KeymapTypeConfusionTests {
    /// TOML value kinds, each written as a literal.
    enum Kind: String, CaseIterable, Sendable {
        case string, int, float, bool, offsetDateTime, localDate, localTime, localDateTime
        case intArray, stringArray, emptyArray, mixedArray, inlineTable, emptyTable, tableArray

        var literal: String {
            switch self {
            case .string: "\"text\""
            case .int: "42"
            case .float: "4.5"
            case .bool: "true"
            case .offsetDateTime: "1979-05-27T07:32:00Z"
            case .localDate: "1979-05-27"
            case .localTime: "07:32:00"
            case .localDateTime: "1979-05-27T07:32:00"
            case .intArray: "[1, 2]"
            case .stringArray: "[\"a\", \"b\"]"
            case .emptyArray: "[]"
            case .mixedArray: "[\"a\", 1]"
            case .inlineTable: "{ x = 1 }"
            case .emptyTable: "{}"
            case .tableArray: "[{ x = 1 }]"
            }
        }
    }

    /// A field: a keymap with `VALUE` where the field's value goes (always on the line marked by
    /// `VALUE`), and the kinds that are well typed there (skipped: they may be valid).
    struct Field: Sendable, CustomTestStringConvertible {
        var name: String
        var template: String
        var accepts: Set<Kind>
        var testDescription: String { name }
    }

    static let base = "[layers.base]\n\"x....\" = \"a\"\n"
    static let table: Set<Kind> = [.inlineTable, .emptyTable]
    static let number: Set<Kind> = [.int, .float]
    /// An action is a string or an array of them (tables are tested: `{ x = 1 }` is not one).
    static let action: Set<Kind> = [.string, .stringArray]

    static let fields: [Field] = [
        Field(name: "name", template: "name = VALUE\n" + base, accepts: [.string]),
        Field(name: "extends", template: "extends = VALUE\n" + base, accepts: [.string]),
        Field(name: "options", template: "options = VALUE\n" + base, accepts: table),
        Field(name: "mouse", template: "mouse = VALUE\n" + base, accepts: table),
        Field(name: "match", template: "match = VALUE\n" + base, accepts: table),
        Field(name: "gestures", template: "gestures = VALUE\n" + base, accepts: table),
        Field(name: "layers", template: "layers = VALUE\n", accepts: []),
        Field(name: "layers.base", template: "[layers]\nbase = VALUE\n", accepts: [.emptyTable]),
        Field(name: "options.multi-tap-window-ms", template: base + "[options]\nmulti-tap-window-ms = VALUE\n", accepts: [.int]),
        Field(name: "options.allow-commands", template: base + "[options]\nallow-commands = VALUE\n", accepts: [.bool]),
        Field(name: "match.apps", template: base + "[match]\napps = VALUE\n", accepts: [.stringArray, .emptyArray]),
        Field(name: "match.devices", template: base + "[match]\ndevices = VALUE\n", accepts: [.stringArray, .emptyArray]),
        Field(name: "gestures.pinch", template: base + "[gestures]\npinch = VALUE\n", accepts: action),
        Field(name: "binding", template: base + "\".x...\" = VALUE\n", accepts: action),
        Field(name: "binding.tap", template: base + "\".x...\" = { tap = VALUE }\n", accepts: action),
        Field(name: "binding.double", template: base + "\".x...\" = { tap = \"a\", double = VALUE }\n", accepts: action),
        Field(name: "binding.triple", template: base + "\".x...\" = { tap = \"a\", triple = VALUE }\n", accepts: action),
        Field(name: "action.text", template: base + "\".x...\" = { text = VALUE }\n", accepts: [.string]),
        Field(name: "action.run", template: "[options]\nallow-commands = true\n" + base + "\".x...\" = { run = VALUE }\n",
              accepts: [.stringArray]),
        Field(name: "sequence element", template: base + "\".x...\" = [\"a\", VALUE]\n", accepts: [.string]),
        Field(name: "fallthrough", template: base + "fallthrough = VALUE\n", accepts: [.bool]),
    ] + MouseFieldNames.numeric.map {
        Field(name: "mouse.\($0)", template: base + "[mouse]\n\($0) = VALUE\n", accepts: number)
    } + MouseFieldNames.flags.map {
        Field(name: "mouse.\($0)", template: base + "[mouse]\n\($0) = VALUE\n", accepts: [.bool])
    }

    enum MouseFieldNames {
        static let numeric = ["sensitivity", "acceleration", "threshold", "max-gain", "scroll-sensitivity"]
        static let flags = ["invert-x", "invert-y", "natural-scroll"]
    }

    @Test("every wrong type is a positioned error with a hint", arguments: fields)
    func wrongTypes(_ field: Field) {
        #expect(field.accepts.count < Kind.allCases.count)
        for kind in Kind.allCases where !field.accepts.contains(kind) {
            Self.expectError(field.template, kind.literal, "\(field.name) = \(kind)")
        }
    }

    /// Well-typed values outside their range, and numbers TOML itself rejects.
    @Test(arguments: [
        "[options]\nmulti-tap-window-ms = VALUE\n": ["0", "-1", "49", "2001", "9223372036854775807", "-9223372036854775808"],
        "[mouse]\nsensitivity = VALUE\n": ["0", "-1", "1e300", "nan", "inf", "-inf", "100.0001"],
        "[mouse]\nmax-gain = VALUE\n": ["0.5", "51", "nan", "+inf"],
        "[mouse]\nthreshold = VALUE\n": ["0", "-0.0", "1e-300"],
        "[options]\nmulti-tap-window-ms = VALUE\n# TOML overflow\n": ["9223372036854775808", "0x1_0000_0000_0000_0000", "1e999"],
    ] as [String: [String]])
    func outOfRange(_ template: String, _ values: [String]) {
        for v in values { Self.expectError(Self.base + template, v, "\(template) \(v)") }
    }

    /// Chord keys and gesture names that are not chords or gestures, including ones that overflow
    /// a byte or an Int (chord "256" used to trap in `Chord(spelling:)`).
    @Test(arguments: ["\"0\"", "\"32\"", "\"256\"", "\"65536\"", "\"-1\"", "\"99999999999999999999\"", "\"x.x.x.\"", "\"\"",
                      "\"thumb+thumb\"", "\"½\"", "\"٣\""])
    func badChordKeys(_ key: String) {
        Self.expectError(Self.base + "\(key) = VALUE\n", "\"b\"", "chord \(key)")
    }

    /// TOMLKit hands keys to Swift as C strings, so a key with an escaped NUL is cut there:
    /// `"x....\u0000"` arrives as `"x...."`. It is still an error (bound twice), reported at
    /// the first binding of that chord.
    @Test func aKeyWithANulIsCutByTOMLKitButStillAnError() {
        do {
            _ = try KeymapLoader.parse(source: Self.base + "\"x....\\u0000\" = \"b\"\n", file: "t.toml")
            Issue.record("expected an error")
        } catch {
            #expect(KeymapRobustnessTests.wellFormed(error, "NUL key")?.message.contains("bound twice") == true)
        }
    }

    @Test(arguments: ["\"99999999999999999999\"", "\"-1\"", "pnich", "\"\"", "\"٣\""])
    func badGestureKeys(_ key: String) {
        Self.expectError(Self.base + "[gestures]\n\(key) = VALUE\n", "\"click\"", "gesture \(key)")
    }

    /// Puts `value` where `template` says VALUE and parses it: it must fail, with its first
    /// diagnostic on that line (TOML syntax errors included) and every diagnostic well formed.
    static func expectError(_ template: String, _ value: String, _ context: String) {
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false)
        let valueLine = lines.firstIndex { $0.contains("VALUE") }! + 1
        let source = template.replacingFirst("VALUE", with: value)
    do {
            let k = try KeymapLoader.parse(source: source, file: "t.toml")
            Issue.record("\(context): accepted, giving \(k.name)")
        } catch {
            guard let first = KeymapRobustnessTests.wellFormed(error, context) else { return }
            #expect(first.location.file == "t.toml", "\(context): \(first)")
            #expect(first.location.line == valueLine, "\(context): \(first)")
            let text = source.split(separator: "\n", omittingEmptySubsequences: false)[valueLine - 1]
            #expect(first.location.column >= 1 && first.location.column <= text.count + 1, "\(context): \(first)")
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        var s = self
        if let r = s.firstRange(of: target) { s.replaceSubrange(r, with: replacement) }
        return s
    }
}
