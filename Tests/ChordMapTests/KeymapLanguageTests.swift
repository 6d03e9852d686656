import TestKit
import Testing
@testable import ChordMap

/// Aliases, macros, self-returning layers, layer hooks and `[feedback]`: what the loader accepts,
/// what it refuses (positioned, with hints), and the engine API around them. Behaviour over time
/// is in the `.t` fixtures (alias-*, macro-*, layer-*, feedback-*).
@Suite("Keymap language")
struct KeymapLanguageTests {
    static let broken: [BrokenKeymap] = [
        BrokenKeymap(kind: "unknown alias",
                     source: "[aliases]\nsave = \"ctrl+s\"\n[layers.base]\n\"x....\" = \"@sav\"\n", position: "4:11",
                     message: "unknown alias \"@sav\"", hint: "did you mean \"save\"?"),
        BrokenKeymap(kind: "unknown alias without any aliases",
                     source: "[layers.base]\n\"x....\" = [\"a\", \"@sig\"]\n", position: "2:11",
                     message: "unknown alias \"@sig\"", hint: "define it under [aliases]"),
        BrokenKeymap(kind: "alias cycle",
                     source: "[aliases]\na = [\"x\", \"@b\"]\nb = \"@a\"\n[layers.base]\n\"x....\" = \"@a\"\n", position: "2:5",
                     message: "alias cycle: @a -> @b -> @a", hint: "may not use itself"),
        BrokenKeymap(kind: "alias using itself",
                     source: "[aliases]\nme = [\"@me\"]\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:6",
                     message: "alias cycle: @me -> @me", hint: nil),
        BrokenKeymap(kind: "aliases nested too deep",
                     source: "[aliases]\n" + (0..<9).map { "a\($0) = \"@a\($0 + 1)\"\n" }.joined() + "a9 = \"x\"\n[layers.base]\n\"x....\" = \"@a0\"\n",
                     position: "3:6", message: "aliases nest more than 8 deep below @a1", hint: "write the action out"),
        BrokenKeymap(kind: "alias name with a space",
                     source: "[layers.base]\n\"x....\" = \"@my save\"\n", position: "2:11",
                     message: "is not an alias reference", hint: "a lone \"@\" types @"),
        BrokenKeymap(kind: "alias defined with a bad name",
                     source: "[aliases]\n\"my save\" = \"ctrl+s\"\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:1",
                     message: "alias name \"my save\" may only use", hint: nil),
        BrokenKeymap(kind: "alias expanding exponentially",
                     source: "[aliases]\n" + (0..<6).map { i in "a\(i) = [" + Array(repeating: "\"@a\(i + 1)\"", count: 4).joined(separator: ", ") + "]\n" }.joined()
                        + "a6 = \"x\"\n[layers.base]\n\"x....\" = \"@a0\"\n",
                     position: "10:11", message: "expands to", hint: "multiply"),
        BrokenKeymap(kind: "macro delay too long",
                     source: "[layers.base]\n\"x....\" = { macro = [\"a\", 6000, \"b\"] }\n", position: "2:27",
                     message: "a macro delay must be 0 to 5000 ms, not 6000", hint: "split"),
        BrokenKeymap(kind: "macro too long in total",
                     source: "[layers.base]\n\"x....\" = { macro = [\"a\"" + String(repeating: ", 5000, \"a\"", count: 7) + "] }\n", position: "2:21",
                     message: "delays add up to at most 30000 ms, this one 35000 ms", hint: nil),
        BrokenKeymap(kind: "macro too long through an alias",
                     source: "[aliases]\nwait = { macro = [4000, \"a\", 4000, \"b\", 4000, \"c\", 4000, \"d\"] }\n[layers.base]\n\"x....\" = { macro = [\"@wait\", 5000, \"@wait\"] }\n",
                     position: "4:11", message: "this one 37000 ms", hint: nil),
        BrokenKeymap(kind: "macro with too many steps",
                     source: "[layers.base]\n\"x....\" = { macro = [" + Array(repeating: "\"a\"", count: 65).joined(separator: ",") + "] }\n",
                     position: "2:21", message: "at most 64 actions", hint: nil),
        BrokenKeymap(kind: "macro ending in a delay",
                     source: "[layers.base]\n\"x....\" = { macro = [\"a\", 50] }\n", position: "2:27",
                     message: "a delay at the end of a macro does nothing", hint: nil),
        BrokenKeymap(kind: "macro that is not an array",
                     source: "[layers.base]\n\"x....\" = { macro = \"a\" }\n", position: "2:21",
                     message: "a macro is an array", hint: nil),
        BrokenKeymap(kind: "macro with only delays",
                     source: "[layers.base]\n\"x....\" = { macro = [50] }\n", position: "2:21",
                     message: "a macro needs at least one action", hint: nil),
        BrokenKeymap(kind: "misspelt macro table",
                     source: "[layers.base]\n\"x....\" = { marco = [\"a\"] }\n", position: "2:13",
                     message: "unknown field \"marco\" in an action table", hint: "\"macro\""),
        BrokenKeymap(kind: "return-after-chords out of range",
                     source: "[layers.base]\n\"x....\" = \"toggle(nav)\"\n[layers.nav]\nreturn-after-chords = 0\n", position: "4:23",
                     message: "return-after-chords must be 1 to 100, not 0", hint: "layer(nav)"),
        BrokenKeymap(kind: "return-after-ms of the wrong type",
                     source: "[layers.base]\n\"x....\" = \"toggle(nav)\"\n[layers.nav]\nreturn-after-ms = \"2s\"\n", position: "4:19",
                     message: "\"return-after-ms\" must be an integer", hint: nil),
        BrokenKeymap(kind: "misspelt layer option",
                     source: "[layers.base]\n\"x....\" = \"toggle(nav)\"\n[layers.nav]\non-entre = \"vibrate(40)\"\n", position: "4:1",
                     message: "unknown field \"on-entre\" in [layers.nav]", hint: "\"on-enter\""),
        BrokenKeymap(kind: "hook that switches layers",
                     source: "[layers.base]\n\"x....\" = \"toggle(nav)\"\n[layers.nav]\non-leave = [\"f13\", \"layer(nav)\"]\n", position: "4:12",
                     message: "on-leave may not switch layers or clear", hint: nil),
        BrokenKeymap(kind: "hook that clears through an alias",
                     source: "[aliases]\nreset = \"clear\"\n[layers.base]\non-enter = \"@reset\"\n\"x....\" = \"a\"\n", position: "4:12",
                     message: "on-enter may not switch layers or clear", hint: nil),
        BrokenKeymap(kind: "unknown feedback field",
                     source: "[feedback]\nlayers = false\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:1",
                     message: "unknown field \"layers\" in [feedback]", hint: "\"layer\""),
        BrokenKeymap(kind: "feedback switch of the wrong type",
                     source: "[feedback]\nhaptics = \"off\"\n[layers.base]\n\"x....\" = \"a\"\n", position: "2:11",
                     message: "\"haptics\" must be true or false", hint: nil),
        BrokenKeymap(kind: "hook that runs a command without permission",
                     source: "[layers.base]\non-enter = { run = [\"true\"] }\n\"x....\" = \"a\"\n", position: "2:12",
                     message: "commands are disabled", hint: nil),
    ]

    @Test("broken language keymap is reported with its position", arguments: broken)
    func positioned(_ c: BrokenKeymap) {
        do {
            _ = try parseVirtual(c.source)
            Issue.record("\(c.kind): expected an error")
        } catch {
            let first = error.diagnostics[0]
            #expect(first.description.hasPrefix("test.toml:\(c.position)"), "\(first)")
            #expect(first.message.contains(c.message), "\(first)")
            if let hint = c.hint { #expect(first.hint?.contains(hint) == true, "\(first)") }
        }
    }

    @Test func aliasesAreLateBoundThroughExtends() throws {
        // The parent binds "@greet"; the child only redefines the alias. The parent's binding
        // types the child's version (late binding), and an alias the child does not touch stays.
        let files = [
            "parent.toml": "[aliases]\ngreet = { text = \"hi\" }\nsave = \"ctrl+s\"\n[layers.base]\n\"x....\" = \"@greet\"\n\".x...\" = \"@save\"\n",
        ]
        let child = "extends = \"parent.toml\"\n[aliases]\ngreet = { text = \"yo\" }\n"
        let keymap = try KeymapLoader.parse(source: child, file: "child.toml") { ref, _ in files[ref].map { ($0, ref) } }
        #expect(keymap.layers[0][Chord(spelling: "x....")!]?.tap == .text("yo"))
        #expect(keymap.layers[0][Chord(spelling: ".x...")!]?.tap == .character("s", modifiers: [.leftCtrl]))
        let parentAlone = try KeymapLoader.parse(source: files["parent.toml"]!, file: "parent.toml")
        #expect(parentAlone.layers[0][Chord(spelling: "x....")!]?.tap == .text("hi"))
    }

    @Test func childLayerOptionsOverrideTheParentsOneByOne() throws {
        let files = ["parent.toml": "[layers.base]\n\"x....\" = \"toggle(nav)\"\n[layers.nav]\nreturn-after-chords = 2\non-enter = \"vibrate(40)\"\n"]
        let child = "extends = \"parent.toml\"\n[layers.nav]\nreturn-after-ms = 900\n[feedback]\nlock = false\n"
        let keymap = try KeymapLoader.parse(source: child, file: "child.toml") { ref, _ in files[ref].map { ($0, ref) } }
        let nav = keymap.layers[keymap.layerIndex(named: "nav")!]
        #expect(nav.returnAfterChords == 2 && nav.returnAfterMs == 900 && nav.onEnter == .vibrate([40]))
        #expect(keymap.feedback.layer && !keymap.feedback.lock && keymap.feedback.haptics)
    }

    @Test func aliasesResolveInTwoHandBindingsAndSequences() throws {
        let k = try parseVirtual("""
            [aliases]
            go = "enter"
            [hands]
            left = "L"
            right = "R"
            [layers.base]
            "x...." = "a"
            "....x|x...." = "@go"
            "x...., .x..." = "@go"
            """)
        #expect(k.layers[0].handBindings[HandChord(left: 1, right: 1)!]?.tap == .key(.enter, modifiers: []))
        #expect(k.layers[0].sequences.values.first == .key(.enter, modifiers: []))
        #expect(throws: KeymapError.self) { try parseVirtual("[layers.base]\n\"x...., .x...\" = \"@nope\"\n") }
    }

    @Test func aliasesOnlyNameLayersThatExist() {
        // Layer references made through an alias are checked like written ones.
        #expect(throws: KeymapError.self) {
            try parseVirtual("[aliases]\nnav = \"toggle(nva)\"\n[layers.base]\n\"x....\" = \"@nav\"\n")
        }
    }

    @Test func aLoneAtSignIsTheCharacter() throws {
        let keymap = try parseVirtual("[layers.base]\n\"x....\" = \"@\"\n\".x...\" = \"ctrl+@\"\n")
        #expect(keymap.layers[0][Chord(spelling: "x....")!]?.tap == .character("@", modifiers: []))
        #expect(keymap.layers[0][Chord(spelling: ".x...")!]?.tap == .character("@", modifiers: [.leftCtrl]))
    }

    @Test func macroDeadlinesAreReportedAndRunByTimeout() throws {
        let keymap = try parseVirtual("[feedback]\nhaptics = false\n[layers.base]\n\"x....\" = { macro = [\"a\", 40, \"b\"] }\n")
        var e = Engine(keymap: keymap, characters: TestLayout.us)
        let r = e.step(.tap(ChordTap(device: "tap", chord: Chord(spelling: "x....")!)), at: .milliseconds(10))
        #expect(r.outputs.count == 2)                       // a: press, release
        #expect(r.nextDeadline == .milliseconds(50))
        #expect(!e.isIdle)                                  // no keymap switch in the middle of a macro
        #expect(e.timeout(at: .milliseconds(49)).outputs.isEmpty)
        let t = e.timeout(at: .milliseconds(50))
        #expect(t.outputs.count == 2 && t.nextDeadline == nil)
        #expect(e.isIdle)
    }

    @Test func releaseAllDropsARunningMacroAndItsDeadline() throws {
        let keymap = try parseVirtual("[layers.base]\n\"x....\" = { macro = [\"a\", 40, \"b\"] }\n")
        var e = Engine(keymap: keymap, characters: TestLayout.us)
        _ = e.step(.tap(ChordTap(device: "tap", chord: Chord(spelling: "x....")!)), at: .zero)
        #expect(e.nextDeadline != nil)
        #expect(e.releaseAll() == [.frame(Frame())])
        #expect(e.nextDeadline == nil)
        #expect(e.timeout(at: .milliseconds(100)).outputs.isEmpty)
    }

    @Test func connectPulsesUnlessSwitchedOff() throws {
        let on = Engine(keymap: KeymapLoader.builtinDefault, characters: TestLayout.us)
        #expect(on.deviceConnected("tap") == [.vibrate(device: "tap", durationsMs: FeedbackPatterns.connected)])
        let off = Engine(keymap: try parseVirtual("extends = \"builtin\"\n[feedback]\nconnect = false\n"), characters: TestLayout.us)
        #expect(off.deviceConnected("tap").isEmpty)
    }

    @Test func aReloadThatMovesTheToggledLayerDoesNotPulse() throws {
        let a = try parseVirtual("[layers.base]\n\"x....\" = \"toggle(nav)\"\n\".x...\" = \"b\"\n[layers.nav]\n\".x...\" = \"a\"\n")
        let b = try parseVirtual("[layers.base]\n\"x....\" = \"toggle(nav)\"\n\"..x..\" = \"layer(extra)\"\n[layers.extra]\n[layers.nav]\n\".x...\" = \"a\"\n")
        var e = Engine(keymap: a, characters: TestLayout.us)
        _ = e.step(.tap(ChordTap(device: "tap", chord: Chord(spelling: "x....")!)), at: .zero)
        e.replaceKeymap(b)                                   // nav is layer 1 in a, 2 in b
        let r = e.step(.tap(ChordTap(device: "tap", chord: Chord(spelling: ".x...")!)), at: .milliseconds(500))
        #expect(e.activeLayer(of: "tap") == "nav")
        #expect(!r.outputs.contains { if case .vibrate = $0 { true } else { false } })
    }

    /// Many aliases sharing one: each is resolved once (the test finishes quickly).
    @Test func manyAliasesLoadInLinearTime() throws {
        let n = 20_000
        let source = "[aliases]\nshared = { macro = [\"a\", 10, \"b\"] }\n" + (0..<n).map { "a\($0) = [\"@shared\", \"x\"]\n" }.joined()
            + "[layers.base]\n\"x....\" = \"@a\(n - 1)\"\n"
        let k = try parseVirtual(source)
        #expect(k.layers[0][Chord(spelling: "x....")!]?.tap.isMacro == true)
    }

    /// Thousands of unknown references: each reported, with a hint, but only the first few names
    /// are compared with every alias for a did-you-mean (which would be quadratic).
    @Test func manyUnknownAliasesAreReportedInLinearTime() {
        let n = 5_000
        let source = "[aliases]\n" + (0..<n).map { "a\($0) = \"@missing\($0)\"\n" }.joined() + "[layers.base]\n\"x....\" = \"a\"\n"
        do {
            _ = try parseVirtual(source)
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.count == n)
            #expect(error.diagnostics.allSatisfy { $0.hint?.isEmpty == false && $0.message.hasPrefix("unknown alias") })
        }
    }

    /// Random taps, timeouts and release-alls over macros, hooks and self-returning layers: after
    /// every engine call no key is left down (only buttons a drag lock holds), so a macro step is
    /// never split; a step leaves nothing due behind; release-all leaves nothing pressed, pending or due.
    @Test func macrosAndHooksNeverLeaveAKeyDown() throws {
        let keymap = try parseVirtual("""
            [aliases]
            burst = { macro = ["ctrl+c", 30, "a", 0, "shift+b", 200, "drag-lock", 50, "alt+tab"] }
            [layers.base]
            "x...." = "@burst"
            ".x..." = { tap = "toggle(nav)", double = "lock(shift)" }
            "..x.." = "layer(nav)"
            "...x." = { macro = [100, "c", 100, "clear"] }
            "....x" = "click"
            [layers.nav]
            on-enter = { macro = ["f13", 40, "vibrate(30)"] }
            on-leave = "f14"
            return-after-chords = 3
            return-after-ms = 300
            "...x." = "toggle(nav)"
            """)
        var rng = SplitMix(seed: 5)
        for _ in 0..<300 {
            var e = Engine(keymap: keymap, characters: TestLayout.us)
            var now = EngineTime.zero
            var results: [StepResult] = []
            for _ in 0..<Int(rng.next() % 20) {
                now = now.adding(nanoseconds: (rng.next() % 250) * 1_000_000)
                while let d = e.nextDeadline, d <= now, rng.next() % 2 == 0 { results.append(e.timeout(at: d)) }
                if rng.next() % 10 == 0 {
                    _ = e.releaseAll()
                } else {
                    let chord = Chord(rawValue: [1, 2, 4, 8, 16][Int(rng.next() % 5)])!
                    let r = e.step(.tap(ChordTap(device: rng.next() % 4 == 0 ? "b" : "a", chord: chord)), at: now)
                    results.append(r)
                    // A step runs everything due, timers its own taps set included: what is left is later.
                    if let d = r.nextDeadline { #expect(d > now) }
                }
            }
            for r in results {
                let frames = r.outputs.compactMap { if case .frame(let f) = $0 { f } else { nil } }
                #expect(frames.last.map { $0.pressed.allSatisfy(\.isMouseButton) } ?? true, "\(r.outputs)")
            }
            #expect(e.releaseAll().first == .frame(Frame()))
            #expect(e.isIdle && e.nextDeadline == nil)
            #expect(e.timeout(at: now.adding(nanoseconds: 60_000_000_000)).outputs.isEmpty)
        }
    }

    @Test func theBuiltinKeymapKeepsWorkingWithPulses() {
        #expect(KeymapLoader.builtinDefault.feedback == FeedbackSettings())
    }
}
