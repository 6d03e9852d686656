import TestKit
import Testing
@testable import ChordMap

/// `[match]` glob patterns: matching, bad patterns with their positions, and the cost bound.
struct GlobPatternTests {
    static let cases: [(pattern: String, text: String, matches: Bool)] = [
        ("firefox", "firefox", true), ("firefox", "Firefox", true), ("firefox", "firefox-esr", false),
        ("*chromium*", "org.chromium.Chromium", true), ("*chromium*", "chrome", false),
        ("*YouTube*", "Cats - YouTube — Mozilla Firefox", true), ("*youtube", "YouTube - x", false),
        ("fire?ox", "firefox", true), ("fire?ox", "fireox", false),
        ("[fF]oot", "foot", true), ("[a-c]x", "bx", true), ("[a-c]x", "dx", false),
        ("[!a-c]x", "dx", true), ("[^a-c]x", "ax", false), ("[]]", "]", true), ("[a-]", "-", true),
        ("\\*lit", "*lit", true), ("\\*lit", "xlit", false), ("a**b", "ab", true), ("*", "", true),
        ("?", "", false), ("*é*", "CAFÉ", true), ("*.txt", "a.txt", true), ("a*b*c", "abxbyc", true),
        ("a*b*c", "abxbyd", false),
    ]

    @Test func matching() throws {
        for c in Self.cases {
            #expect(try GlobPattern(c.pattern).matches(c.text) == c.matches, "\(c.pattern) vs \(c.text)")
        }
    }

    @Test func badPatternsSayWhereAndWhy() {
        func problem(_ p: String) -> GlobPattern.Problem? {
            do { _ = try GlobPattern(p); return nil } catch { return error }
        }
        #expect(problem("ab[cd")?.offset == 2)
        #expect(problem("ab[cd")?.message == "\"[\" is not closed")
        #expect(problem("x[z-a]")?.message == "range z-a is backwards")
        #expect(problem("x[z-a]")?.offset == 2)
        #expect(problem("")?.message == "an empty pattern matches nothing")
        #expect(problem("abc\\")?.offset == 3)
        #expect(problem(String(repeating: "a", count: 257))?.offset == 256)
        #expect(problem(String(repeating: "a", count: 256)) == nil)
    }

    /// The pattern that makes naive recursive matchers exponential: 127 stars against the
    /// longest title looked at. Bounded by pattern x text steps; here a few milliseconds.
    @Test func pathologicalPatternsStayFast() throws {
        let pattern = try GlobPattern(String(repeating: "*a", count: 127) + "b")
        let title = String(repeating: "a", count: 100_000)
        let start = ContinuousClock.now
        #expect(pattern.matches(title) == false)
        #expect(pattern.matches(String(repeating: "a", count: 300) + "b"))
        #expect(ContinuousClock.now - start < .milliseconds(500))
    }

    /// The two-pointer matcher against a plain dynamic-programming one on random patterns and
    /// texts over a small alphabet (where stars, sets and near-misses collide most).
    @Test func agreesWithAReferenceMatcherOnRandomInput() throws {
        var rng = SplitMix(seed: 14)
        let pieces = ["a", "b", "*", "?", "[ab]", "[!a]", "[a-b]", "\\*", "A"]
        for _ in 0..<3000 {
            let pattern = (0..<Int.random(in: 1...7, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let text = String((0..<Int.random(in: 0...9, using: &rng)).map { _ in "abAB*".randomElement(using: &rng)! })
            let glob = try GlobPattern(pattern)
            #expect(glob.matches(text) == Self.reference(glob.tokens, Array(text.lowercased().unicodeScalars)),
                    "\(pattern) vs \(text)")
        }
    }

    /// dp[i][j]: the first i tokens match the first j characters.
    static func reference(_ tokens: [GlobPattern.Token], _ t: [Unicode.Scalar]) -> Bool {
        var dp = Array(repeating: Array(repeating: false, count: t.count + 1), count: tokens.count + 1)
        dp[0][0] = true
        for i in 1...max(1, tokens.count) where i <= tokens.count {
            for j in 0...t.count {
                switch tokens[i - 1] {
                case .star: dp[i][j] = dp[i - 1][j] || (j > 0 && dp[i][j - 1])
                case .any: dp[i][j] = j > 0 && dp[i - 1][j - 1]
                case .literal(let c): dp[i][j] = j > 0 && dp[i - 1][j - 1] && t[j - 1] == c
                case .set(let negated, let items):
                    dp[i][j] = j > 0 && dp[i - 1][j - 1] && (items.contains { $0.contains(t[j - 1]) } != negated)
                }
            }
        }
        return dp[tokens.count][t.count]
    }

    @Test func matchEntriesAreCheckedWhenTheKeymapLoads() throws {
        let source = "[match]\napps = [\"*chromium*\"]\ntitles = [\"*YouTube*\", \"*[Music\"]\n[layers.base]\n\"x....\" = \"a\"\n"
        do {
            _ = try parseVirtual(source)
            Issue.record("a bad pattern loaded")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect("\(d.location.line):\(d.location.column)" == "3:26")   // the "[" inside "*[Music"
            #expect(d.message == "bad pattern \"*[Music\" in [match] titles: \"[\" is not closed")
            #expect(d.hint == "close the set with \"]\", or write \\[ for a bracket itself")
        }
        let keymap = try parseVirtual(source.replacingOccurrences(of: ", \"*[Music\"", with: ""))
        #expect(keymap.match == KeymapMatch(apps: ["*chromium*"], titles: ["*YouTube*"]))
        #expect(keymap.match.matches(title: "Cats - YouTube"))
        #expect(!keymap.match.matches(title: "Cats"))
    }

    @Test func unknownMatchFieldsNameTitles() throws {
        do {
            _ = try parseVirtual("[match]\ntitle = [\"x\"]\n[layers.base]\n\"x....\" = \"a\"\n")
            Issue.record("an unknown field loaded")
        } catch {
            #expect(error.diagnostics.first?.hint?.contains("titles") == true)
        }
    }
}
