import TestKit
import Testing
@testable import ChordMap

/// A broken keymap and what its first diagnostic must say.
struct BrokenKeymap: CustomTestStringConvertible, Sendable {
    var kind: String
    var source: String
    /// `line:column` of the first diagnostic.
    var position: String
    var message: String
    var hint: String?
    var testDescription: String { kind }
}

/// Files for `extends` tests, resolved in memory.
let virtualFiles: [String: String] = [
    "a.toml": "extends = \"b.toml\"\n[layers.base]\n\"x....\" = \"a\"\n",
    "b.toml": "extends = \"c.toml\"\n",
    "c.toml": "# c\nextends = \"a.toml\"\n",
]

func parseVirtual(_ source: String, file: String = "test.toml") throws(KeymapError) -> Keymap {
    try KeymapLoader.parse(source: source, file: file) { ref, _ in virtualFiles[ref].map { ($0, ref) } }
}

@Suite("Keymap diagnostics")
struct DiagnosticsTests {
    static let cases: [BrokenKeymap] = [
        BrokenKeymap(kind: "TOML syntax: unquoted chord key",
                     source: "[layers.base]\nx.x.. = \"d\"\n", position: "2:5",
                     message: "TOML syntax:", hint: "chord keys must be quoted"),
        BrokenKeymap(kind: "TOML syntax: table defined twice",
                     source: "[layers.base]\n\"x....\" = \"a\"\n\n[layers.base]\n\".x...\" = \"b\"\n", position: "4:",
                     message: "TOML syntax:", hint: "only once"),
        BrokenKeymap(kind: "CRLF line endings",
                     source: "[layers.base]\r\n\"x....\" = \"a\"\r\n\".x...\" = \"entr\"\r\n", position: "3:11",
                     message: "unknown key name", hint: "\"enter\""),
        BrokenKeymap(kind: "TOML syntax: unterminated string",
                     source: "[layers.base]\n\"x....\" = \"a\n", position: "2:",
                     message: "TOML syntax:", hint: nil),
        BrokenKeymap(kind: "TOML syntax: bad table header",
                     source: "[,options]\n", position: "1:2",
                     message: "TOML syntax: a table name must start", hint: nil),
        BrokenKeymap(kind: "TOML syntax: table header broken by a newline",
                     source: "[layers.base]\n\"x....\" = \"a\"\n[\noptions]\n", position: "3:2",
                     message: "TOML syntax: a table name must start", hint: nil),
        BrokenKeymap(kind: "arrays nested too deep",
                     source: "[layers.base]\n\"x....\" = " + String(repeating: "[", count: 40) + "\"a\"" + String(repeating: "]", count: 40) + "\n",
                     position: "2:43", message: "values nested more than 32 levels deep", hint: "stray ["),
        BrokenKeymap(kind: "200,000 unclosed [ (no stack overflow, no quadratic scan)",
                     source: "[layers.base]\n\"x....\" = " + String(repeating: "[", count: 200_000) + "\n",
                     position: "2:43", message: "values nested more than 32 levels deep", hint: nil),
        BrokenKeymap(kind: "inline tables nested too deep",
                     source: "[options]\nx = " + String(repeating: "{ a = ", count: 33) + "1" + String(repeating: " }", count: 33) + "\n",
                     position: "2:197", message: "values nested more than 32 levels deep", hint: nil),
        BrokenKeymap(kind: "a dotted table header too long",
                     source: "[" + Array(repeating: "a", count: 70).joined(separator: ".") + "]\n", position: "1:",
                     message: "values nested more than 32 levels deep", hint: nil),
        BrokenKeymap(kind: "TOML syntax: non-ASCII table name",
                     source: "[é]\n", position: "1:2",
                     message: "TOML syntax: a table name must start", hint: nil),
        BrokenKeymap(kind: "unknown key name",
                     source: "[layers.base]\n\"x....\" = \"entr\"\n", position: "2:11",
                     message: "unknown key name \"entr\"", hint: "\"enter\""),
        BrokenKeymap(kind: "unknown key in a combination",
                     source: "[layers.base]\n\"x....\" = \"ctrl+pgdwn\"\n", position: "2:11",
                     message: "unknown key name \"pgdwn\"", hint: "\"pgdn\""),
        BrokenKeymap(kind: "duplicate chord, spelled two ways",
                     source: "[layers.base]\n\"x.x..\" = \"d\"\n\"thumb+middle\" = \"e\"\n", position: "3:1",
                     message: "chord x.x.. (5) is bound twice in layer \"base\"", hint: "line 2"),
        BrokenKeymap(kind: "chord 0",
                     source: "[layers.base]\n\".....\" = \"a\"\n", position: "2:1",
                     message: "has no finger down", hint: nil),
        BrokenKeymap(kind: "chord above 31",
                     source: "[layers.base]\n\"32\" = \"a\"\n", position: "2:1",
                     message: "chord 32 is out of range", hint: "1-31"),
        BrokenKeymap(kind: "misspelt finger",
                     source: "[layers.base]\n\"thumb+midle\" = \"a\"\n", position: "2:1",
                     message: "\"midle\" is not a finger name", hint: nil),
        BrokenKeymap(kind: "unknown layer",
                     source: "[layers.base]\n\"x....\" = \"toggle(nmbers)\"\n[layers.numbers]\n\"x....\" = \"1\"\n",
                     position: "2:11", message: "unknown layer \"nmbers\"", hint: "\"numbers\""),
        BrokenKeymap(kind: "unreachable layer",
                     source: "[layers.base]\n\"x....\" = \"a\"\n\n[layers.extra]\n\"x....\" = \"b\"\n", position: "4:9",
                     message: "layer \"extra\" is unreachable", hint: "toggle(extra)"),
        BrokenKeymap(kind: "wrong type for an option",
                     source: "[options]\nmulti-tap-window-ms = \"fast\"\n[layers.base]\n\"x....\" = \"a\"\n",
                     position: "2:23", message: "\"multi-tap-window-ms\" must be an integer, not a string", hint: nil),
        BrokenKeymap(kind: "number where an action belongs",
                     source: "[layers.base]\n\"x....\" = 5\n", position: "2:11",
                     message: "expected an action", hint: "quote it"),
        BrokenKeymap(kind: "unknown top-level table",
                     source: "[option]\nallow-commands = true\n[layers.base]\n\"x....\" = \"a\"\n", position: "1:2",
                     message: "unknown field \"option\" in the top level", hint: "\"options\""),
        BrokenKeymap(kind: "unknown option",
                     source: "[options]\nmultitap-window = 300\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:1",
                     message: "unknown field \"multitap-window\" in [options]", hint: nil),
        BrokenKeymap(kind: "unknown field in a multi-tap binding",
                     source: "[layers.base]\n\"x....\" = { tap = \"a\", dbl = \"b\" }\n", position: "2:24",
                     message: "unknown field \"dbl\" in a multi-tap binding", hint: "\"double\""),
        BrokenKeymap(kind: "multi-tap binding without tap",
                     source: "[layers.base]\n\"x....\" = { double = \"b\" }\n", position: "2:11",
                     message: "needs a \"tap\" action", hint: nil),
        BrokenKeymap(kind: "inheritance cycle",
                     source: virtualFiles["a.toml"]!, position: "2:11",
                     message: "inheritance cycle: a.toml -> b.toml -> c.toml -> a.toml", hint: nil),
        BrokenKeymap(kind: "extends target missing",
                     source: "extends = \"nowhere.toml\"\n", position: "1:11",
                     message: "cannot find the keymap \"nowhere.toml\"", hint: "builtin"),
        BrokenKeymap(kind: "command without permission",
                     source: "[layers.base]\n\"x....\" = { run = [\"rm\", \"-rf\", \"/\"] }\n", position: "2:11",
                     message: "commands are disabled", hint: "allow-commands = true"),
        BrokenKeymap(kind: "no base layer",
                     source: "name = \"empty\"\n", position: "1:1",
                     message: "no [layers.base] table", hint: "extends"),
        BrokenKeymap(kind: "window out of range",
                     source: "[options]\nmulti-tap-window-ms = 0\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:23",
                     message: "multi-tap-window-ms must be 50 to 2000, not 0", hint: nil),
        BrokenKeymap(kind: "unknown action function",
                     source: "[layers.base]\n\"x....\" = \"tgl(numbers)\"\n", position: "2:11",
                     message: "unknown action \"tgl(...)\"", hint: nil),
        BrokenKeymap(kind: "oneshot of a non-modifier",
                     source: "[layers.base]\n\"x....\" = \"oneshot(shfit)\"\n", position: "2:11",
                     message: "\"shfit\" is not one", hint: "\"shift\""),
        BrokenKeymap(kind: "bad vibrate pattern",
                     source: "[layers.base]\n\"x....\" = \"vibrate(100,abc)\"\n", position: "2:11",
                     message: "vibrate() takes durations", hint: nil),
        BrokenKeymap(kind: "text with a control character",
                     source: "[layers.base]\n\"x....\" = { text = \"caf\\u0007\" }\n", position: "2:20",
                     message: "text contains the control character U+7", hint: nil),
        BrokenKeymap(kind: "mouse setting of the wrong type",
                     source: "[mouse]\ninvert-y = \"yes\"\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:12",
                     message: "\"invert-y\" must be true or false, not a string", hint: nil),
        BrokenKeymap(kind: "layer that is not a table",
                     source: "[layers]\nbase = \"a\"\n", position: "2:8",
                     message: "\"base\" must be a table, not a string", hint: nil),
        BrokenKeymap(kind: "sequence element wrong",
                     source: "[layers.base]\n\"x....\" = [\"a\", \"nope\"]\n", position: "2:17",
                     message: "unknown key name \"nope\"", hint: nil),
        BrokenKeymap(kind: "action table with both text and run",
                     source: "[layers.base]\n\"x....\" = { text = \"a\", run = [\"b\"] }\n", position: "2:11",
                     message: "exactly one of \"text\", \"run\" or \"macro\"", hint: "array"),
        BrokenKeymap(kind: "misspelt text table",
                     source: "[layers.base]\n\"x....\" = { txt = \"a\" }\n", position: "2:13",
                     message: "unknown field \"txt\" in an action table", hint: "\"text\""),
        BrokenKeymap(kind: "unknown gesture",
                     source: "[gestures]\npnich = \"click\"\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:1",
                     message: "unknown air gesture \"pnich\"", hint: "\"pinch\""),
        BrokenKeymap(kind: "two-hand chord with two bars",
                     source: "[layers.base]\n\"x....|x....|x....\" = \"a\"\n", position: "2:1",
                     message: "one \"|\" between the left and the right hand", hint: "pinky first"),
        BrokenKeymap(kind: "two-hand chord with no finger",
                     source: "[layers.base]\n\".....|.....\" = \"a\"\n", position: "2:1",
                     message: "neither hand taps", hint: "pinky first"),
        BrokenKeymap(kind: "two-hand chord with a bad side",
                     source: "[layers.base]\n\"thumb+thum|x....\" = \"a\"\n", position: "2:1",
                     message: "the left hand's \"thumb+thum\": \"thum\" is not a finger name", hint: nil),
        BrokenKeymap(kind: "two-hand chord bound twice",
                     source: "[layers.base]\n\"....x|x....\" = \"a\"\n\"thumb|thumb\" = \"b\"\n", position: "3:1",
                     message: "bound twice", hint: "line 2"),
        BrokenKeymap(kind: "sequence with a bad step",
                     source: "[layers.base]\n\"x...., xx\" = \"a\"\n", position: "2:1",
                     message: "in the sequence, \"xx\"", hint: "commas"),
        BrokenKeymap(kind: "sequence too long",
                     source: "[layers.base]\n\"1,2,3,4,5,6,7,8,9\" = \"a\"\n", position: "2:1",
                     message: "9 chords is too long", hint: "at most 8"),
        BrokenKeymap(kind: "sequence with a multi-tap table",
                     source: "[layers.base]\n\"1, 2\" = { tap = \"a\", double = \"b\" }\n", position: "2:10",
                     message: "one action, not a multi-tap table", hint: nil),
        BrokenKeymap(kind: "combo window out of range",
                     source: "[options]\ncombo-window-ms = 900\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:19",
                     message: "combo-window-ms must be 10 to 500", hint: "60 ms"),
        BrokenKeymap(kind: "both hands the same device",
                     source: "[hands]\nleft = \"Tap_A\"\nright = \"tap_a\"\n[layers.base]\n\"x....\" = \"a\"\n", position: "3:9",
                     message: "both hands are", hint: "two different devices"),
        BrokenKeymap(kind: "unknown field in [hands]",
                     source: "[hands]\nleft = \"A\"\nrigth = \"B\"\n[layers.base]\n\"x....\" = \"a\"\n", position: "3:1",
                     message: "unknown field \"rigth\" in [hands]", hint: "\"right\""),
    ]

    @Test("broken keymap is reported with its position", arguments: cases)
    func positioned(_ c: BrokenKeymap) {
        let file = c.kind == "inheritance cycle" ? "a.toml" : "test.toml"
        do {
            _ = try parseVirtual(c.source, file: file)
            Issue.record("\(c.kind): expected an error")
        } catch {
            let first = error.diagnostics[0]
            let text = first.description
            let expectedFile = c.kind == "inheritance cycle" ? "c.toml" : file
            #expect(text.hasPrefix("\(expectedFile):\(c.position)"), "\(text)")
            #expect(first.message.contains(c.message), "\(text)")
            if let hint = c.hint { #expect(first.hint?.contains(hint) == true, "\(text)") }
            // The offending line is quoted, with a caret under the column.
            if !first.lineText.isEmpty {
                let lines = text.split(separator: "\n")
                #expect(lines.count >= 3)
                #expect(lines[1].hasSuffix(Substring(first.lineText)))
                let caretColumn = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].firstIndex(of: "|")!, to: $0) - 2 }
                #expect(caretColumn == first.location.column - 1, "\(text)")
            }
        }
    }

    @Test func everyProblemIsReportedAtOnceInFileOrder() {
        let source = """
            [layers.base]
            "x...." = "entr"
            "xx..." = "ctrl+q"
            "77" = "a"
            [options]
            allow-comands = true
            """
        do {
            _ = try KeymapLoader.parse(source: source, file: "multi.toml")
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.map { "\($0.location.line):\($0.location.column)" } == ["2:11", "4:1", "6:1"])
            #expect(error.diagnostics[2].hint?.contains("allow-commands") == true)
        }
    }

    @Test func caretUnderlinesTheWholeValue() throws {
        do {
            _ = try KeymapLoader.parse(source: "[layers.base]\n\"x....\" = \"entr\"  # typo\n", file: "k.toml")
        } catch {
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(lines[0] == "k.toml:2:11: error: unknown key name \"entr\"")
            #expect(lines[1] == "   2 | \"x....\" = \"entr\"  # typo")
            #expect(lines[2] == "     |           ^~~~~~")
            #expect(lines[3].hasPrefix("   hint: did you mean \"enter\""))
        }
    }

    /// Mangled copies of the default keymap must produce a result or diagnostics, never a crash,
    /// and every diagnostic must point inside the file.
    @Test func mutatedKeymapsNeverCrash() {
        let source = Array(DefaultKeymap.source.unicodeScalars)
        let alphabet: [Unicode.Scalar] = ["\"", "'", "[", "]", "{", "}", "=", ".", "x", "\n", "#", ",", "+", "(", ")", "0", "9", " "]
        var rng = SplitMix(seed: 42)
        var failures = 0
        for _ in 0..<300 {
            var s = source
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let i = Int(rng.next() % UInt64(s.count))
                switch rng.next() % 3 {
                case 0: s.remove(at: i)
                case 1: s.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
                default: s[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: s)
            let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
            do {
                _ = try KeymapLoader.parse(source: text, file: "m.toml")
            } catch {
                failures += 1
                #expect(!error.diagnostics.isEmpty)
                for d in error.diagnostics {
                    #expect(d.location.line >= 1 && d.location.line <= lineCount + 1, "\(d)")
                    #expect(d.location.column >= 1, "\(d)")
                }
            }
        }
        #expect(failures > 50)   // the mutations really do break things
    }
}
