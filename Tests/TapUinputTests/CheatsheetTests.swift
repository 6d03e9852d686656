import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ChordMap
@testable import TapUinput

/// The cheat sheet renderer's output: completeness, multi-tap marks, layer filter, escaping, and
/// well-formed markup. (The browser render is checked by Tests/cheatsheet/run.)
@Suite struct CheatsheetTests {
    let builtin = KeymapLoader.builtinDefault

    /// The `data-chord` values of the hands inside `fragment`, in order.
    func chords(in fragment: Substring) -> [Int] {
        fragment.components(separatedBy: "<g class=\"hand\" data-chord=\"").dropFirst().map {
            Int($0.prefix { $0.isNumber })!
        }
    }

    /// The part of a standalone SVG belonging to the section with `id`.
    func section(_ id: String, in svg: String) -> Substring {
        let start = svg.range(of: "<g class=\"section\" id=\"\(id)\">")!
        let rest = svg[start.upperBound...]
        let end = rest.range(of: "<g class=\"section\"")?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }

    func count(_ needle: String, in haystack: some StringProtocol) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }

    /// True if `markup` is well-formed XML (an HTML page is checked with its doctype removed).
    func isWellFormedXML(_ markup: String) -> Bool {
        let xml = markup.replacingOccurrences(of: "<!DOCTYPE html>", with: "")
        return XMLParser(data: Data(xml.utf8)).parse()
    }

    @Test func everyChordOfEveryLayerIsDrawnOnceInItsSection() throws {
        let svg = try CheatsheetRenderer(keymap: builtin).svg()
        for (index, layer) in builtin.layers.enumerated() {
            let id = CheatsheetContent.sectionID(index: index, name: layer.name)
            let drawn = chords(in: section(id, in: svg))
            #expect(Set(drawn) == Set(layer.bindings.map { Int($0.chord.rawValue) }), "layer \(layer.name)")
            #expect(drawn.count == layer.bindings.count, "layer \(layer.name)")
        }
        #expect(builtin.layers.map(\.name) == ["base", "numbers"])
        #expect(chords(in: svg[...]).count == 31 + 20)
    }

    @Test func eachHandFillsExactlyTheChordsFingers() throws {
        let svg = try CheatsheetRenderer(keymap: builtin).svg()
        for hand in svg.components(separatedBy: "<g class=\"hand\" data-chord=\"").dropFirst() {
            let chord = UInt8(hand.prefix { $0.isNumber })!
            let circles = hand.components(separatedBy: "</g>")[0].components(separatedBy: "<circle ").dropFirst()
            #expect(circles.count == 5)
            for (bit, circle) in circles.enumerated() {
                let down = chord & (1 << bit) != 0
                #expect(circle.contains("class=\"finger \(down ? "down" : "up")\""), "chord \(chord) finger \(bit)")
                #expect(circle.contains("data-finger=\"\(Chord.fingerNames[bit])\""))
            }
        }
    }

    @Test func cardsAreOrderedByFingerCountThenThumbFirst() throws {
        let base = try CheatsheetContent(keymap: builtin).sections[0].cards
        let order = base.compactMap { card -> Int? in if case .chord(let c) = card.glyph { Int(c.rawValue) } else { nil } }
        #expect(order.prefix(5) == [1, 2, 4, 8, 16])
        #expect(order.dropFirst(5).prefix(4) == [3, 5, 9, 17])     // two fingers with the thumb first
        #expect(order.last == 31)
    }

    @Test func doubleAndTripleTapsAreMarkedOncePerBinding() throws {
        let svg = try CheatsheetRenderer(keymap: builtin).svg()
        let base = section(CheatsheetContent.sectionID(index: 0, name: "base"), in: svg)
        let layer = builtin.layers[0]
        let doubles = layer.bindings.filter { $0.binding.double != nil }.count
        let triples = layer.bindings.filter { $0.binding.triple != nil }.count
        #expect(doubles == 23 && triples == 15)
        #expect(count("<g class=\"multi double\">", in: base) == doubles)
        #expect(count("<g class=\"multi triple\">", in: base) == triples)
        #expect(count(">×2</text>", in: base) == doubles)
        #expect(count(">×3</text>", in: base) == triples)
        // The numbers layer has no multi-taps, so no marks and the short cards.
        let numbers = section(CheatsheetContent.sectionID(index: 1, name: "numbers"), in: svg)
        #expect(!numbers.contains("class=\"multi"))
        #expect(numbers.contains("height=\"\(Markup.num(CheatsheetDrawing.shortCardHeight))\""))
    }

    @Test func labelsOfTheBuiltinKeymapAppear() throws {
        let sheet = try CheatsheetRenderer(keymap: builtin)
        let svg = sheet.svg(), html = sheet.html()
        for label in [">a</text>", ">Space</text>", ">⌫</text>", ">Enter</text>", ">Shift (one-shot)</text>",
                      ">Shift (lock)</text>", ">→ numbers</text>", ">→ base</text>", ">&amp;</text>",
                      ">&quot;</text>", ">&lt;</text>", ">&gt;</text>", ">Esc</text>", ">←</text>", ">0</text>"] {
            #expect(svg.contains(label), "\(label) in svg")
            #expect(html.contains(label), "\(label) in html")
        }
    }

    @Test func twoHandChordsAndSequencesGetCardsSpelledOut() throws {
        let keymap = try KeymapLoader.parse(source: """
            [layers.base]
            "x...." = "a"
            "....x|x...." = { tap = "space", double = "tab" }
            "x...., .x..." = "ctrl+s"
            """, file: "t.toml")
        let content = try CheatsheetContent(keymap: keymap)
        #expect(content.sections[0].cards.map(\.glyph) == [.chord(.thumb), .named("....x|x...."), .named("x...., .x...")])
        #expect(content.sections[0].cards[1].double == "Tab")
        let html = try CheatsheetRenderer(keymap: keymap).html()
        #expect(html.contains(">....x|x....</text>") && html.contains(">x...., .x...</text>"))
    }

    @Test func layerOptionKeepsOnlyThatLayerAndDropsGestures() throws {
        var keymap = builtin
        keymap.gestures = [10: .key(.buttonLeft, modifiers: [])]
        let all = try CheatsheetRenderer(keymap: keymap).html()
        #expect(count("<section ", in: all) == 3)
        #expect(all.contains("<section id=\"gestures\">") && all.contains(">pinch</text>"))

        let numbers = try CheatsheetRenderer(keymap: keymap, layer: "numbers")
        for page in [numbers.html(), numbers.svg()] {
            #expect(chords(in: page[...]).count == 20)
            #expect(page.contains("Layer: numbers") && !page.contains("Layer: base"))
            #expect(!page.contains("gestures") && !page.contains(">pinch</text>"))
        }
        #expect(throws: CheatsheetError.unknownLayer("nav", available: ["base", "numbers"])) {
            try CheatsheetRenderer(keymap: keymap, layer: "nav")
        }
    }

    @Test func noGesturesSectionWithoutGestures() throws {
        let html = try CheatsheetRenderer(keymap: builtin).html()
        #expect(count("<section ", in: html) == 2)
        #expect(!html.contains("Gestures"))
    }

    /// A hand-built keymap can carry names the loader would refuse; the sheet must still escape them.
    var hostile: Keymap {
        let name = "<b>Bad & \"worse\" 'keymap'</b>\u{1}"
        let layer = "x<y&\"z\""
        return Keymap(name: name, layers: [
            Layer(name: "base", bindings: [
                .thumb: Binding(tap: try! ActionParser.parse("<"), double: try! ActionParser.parse("&"),
                                triple: try! ActionParser.parse("\"")),
                .index: Binding(tap: .text("<script>alert('&')</script>")),
                .middle: Binding(tap: .toggleLayer(layer)),
                .ring: Binding(tap: .run(["echo", "a<b"])),
            ]),
            Layer(name: layer, bindings: [.thumb: Binding(tap: try! ActionParser.parse("ctrl+<"))]),
        ], gestures: [10: .oneShotLayer(layer)])
    }

    @Test func everythingFromTheKeymapIsEscaped() throws {
        let sheet = try CheatsheetRenderer(keymap: hostile)
        for page in [sheet.svg(), sheet.html()] {
            #expect(!page.contains("<b>") && !page.contains("<script") && !page.contains("<y"))
            #expect(page.contains("&lt;b&gt;Bad &amp; &quot;worse&quot; &#39;keymap&#39;&lt;/b&gt;\u{FFFD}"))
            #expect(page.contains(">&lt;</text>") && page.contains(">&amp;</text>") && page.contains(">&quot;</text>"))
            #expect(page.contains("→ x&lt;y&amp;&quot;z&quot;"))
            #expect(page.contains("Layer: x&lt;y&amp;&quot;z&quot;"))
            #expect(page.contains("Ctrl+&lt;"))
            #expect(page.contains("&lt;script&gt;alert(&#39;&amp;&#39;)"))
            #expect(page.contains("a&lt;b"))
            #expect(!page.contains("\u{1}"))
            #expect(isWellFormedXML(page))
        }
        // Section ids never carry the raw name.
        #expect(CheatsheetContent.sectionID(index: 1, name: "x<y&\"z\"") == "layer-1-x-y--z-")
    }

    @Test func anEmptyLayerGetsASectionThatSaysSo() throws {
        let keymap = Keymap(name: "bare", layers: [Layer(name: "base", bindings: [.thumb: Binding(tap: .toggleLayer("nav"))]),
                                                   Layer(name: "nav")])
        let sheet = try CheatsheetRenderer(keymap: keymap)
        #expect(try CheatsheetContent(keymap: keymap).sections[1].notes.first == "No chords of its own.")
        #expect(isWellFormedXML(sheet.svg()) && isWellFormedXML(sheet.html()))
        #expect(chords(in: sheet.svg()[...]) == [1])
    }

    @Test func defaultSheetsAreWellFormed() throws {
        let sheet = try CheatsheetRenderer(keymap: builtin)
        #expect(isWellFormedXML(sheet.svg()))
        #expect(isWellFormedXML(sheet.html()))
    }

    @Test func htmlIsSelfContainedAndPrintsOneLayerPerA4Page() throws {
        let html = try CheatsheetRenderer(keymap: builtin).html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("@page { size: A4"))
        #expect(html.contains("section + section { break-before: page; }"))
        #expect(html.contains("break-inside: avoid"))
        for external in ["<script", "<link", "<img", "src=", "href=", "url(", "@import"] {
            #expect(!html.contains(external), "\(external)")
        }
        #expect(count("<svg class=\"grid\"", in: html) == 2)
    }

    @Test func svgSizeMatchesItsViewBox() throws {
        let svg = try CheatsheetRenderer(keymap: builtin).svg()
        let width = Markup.num(CheatsheetDrawing.gridWidth + 2 * CheatsheetRenderer.margin)
        #expect(svg.contains("width=\"\(width)\""))
        #expect(svg.contains("viewBox=\"0 0 \(width) "))
    }

    @Test func layerNotesSayHowALayerIsReachedAndWhatUnboundChordsDo() throws {
        let sections = try CheatsheetContent(keymap: builtin).sections
        #expect(sections[1].notes == ["Reached with ..xxx in base (toggle).", "Chords not shown act as in base."])
        var keymap = builtin
        keymap.layers[1].fallsThrough = false
        #expect(try CheatsheetContent(keymap: keymap).sections[1].notes.last == "Chords not shown do nothing.")
    }

    @Test func layerNotesSayWhenALayerReturnsAndWhatItsHooksDo() throws {
        var keymap = builtin
        keymap.layers[1].returnAfterChords = 3
        keymap.layers[1].returnAfterMs = 2500
        keymap.layers[1].onEnter = .vibrate([100])
        keymap.layers[1].onLeave = .key(KeyCode(name: "esc")!, modifiers: [])
        let notes = try CheatsheetContent(keymap: keymap).sections[1].notes
        #expect(notes.dropFirst().prefix(2) == ["Returns to base after 3 chords or 2.5 s without a chord.",
                                               "On entering: Vibrate; on leaving: Esc."])
        keymap.layers[1].returnAfterChords = nil
        keymap.layers[1].returnAfterMs = 60_000
        keymap.layers[1].onEnter = nil
        #expect(try CheatsheetContent(keymap: keymap).sections[1].notes.dropFirst().prefix(2)
                == ["Returns to base after 60 s without a chord.", "On leaving: Esc."])
    }
}
