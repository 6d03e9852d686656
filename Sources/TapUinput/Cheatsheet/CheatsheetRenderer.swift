import ChordMap

/// Output format of `tap-uinput cheatsheet`.
public enum CheatsheetFormat: String, CaseIterable, Sendable {
    /// One standalone SVG document with every selected section stacked.
    case svg
    /// A self-contained HTML page (inline SVG, inline CSS, no script) that prints one section per A4 page.
    case html
}

/// The printable cheat sheet of a keymap: every chord drawn as a hand, labelled with what one, two
/// and three taps do, one section per layer, plus the gestures.
///
/// Pure: keymap in, markup out; the caller does the I/O.
///
/// ```swift
/// let sheet = try CheatsheetRenderer(keymap: KeymapLoader.builtinDefault, layer: "numbers")
/// print(sheet.render(.html))
/// ```
public struct CheatsheetRenderer: Sendable {
    let content: CheatsheetContent

    /// - Parameter layer: restrict the sheet to this layer (then gestures are left out).
    /// - Throws: ``CheatsheetError/unknownLayer(_:available:)`` if the keymap has no such layer.
    public init(keymap: Keymap, layer: String? = nil) throws(CheatsheetError) {
        content = try CheatsheetContent(keymap: keymap, layer: layer)
    }

    public func render(_ format: CheatsheetFormat) -> String {
        switch format {
        case .svg: svg()
        case .html: html()
        }
    }

    static let fontFamily = "'DejaVu Sans', 'Noto Sans', 'Liberation Sans', Arial, sans-serif"
    /// Outer margin of the standalone SVG.
    static let margin = 16.0

    /// The legend under the title, in both formats.
    var legend: String {
        "Filled circle = finger touches down (thumb on the left). ×2 / ×3 = tap the same chord two / three times, "
            + "each within \(content.multiTapWindowMs) ms."
    }

    /// The standalone SVG: title, legend, then each section's title, notes and card grid, stacked.
    /// Its size is in CSS pixels (`width`/`height` equal the `viewBox`), so a browser shows it 1:1.
    public func svg() -> String {
        typealias D = CheatsheetDrawing
        let m = Self.margin
        let width = D.gridWidth + 2 * m
        var body: [String] = []
        var y = m
        body.append(FittedText(text: content.title, x: m, y: y + 24, size: 24, minSize: 12, maxWidth: D.gridWidth - 130,
                               anchor: "start", bold: true, cssClass: "title").svg)
        body.append(legendHand(x: width - m - 54, y: y + 12))
        body.append(FittedText(text: legend, x: m, y: y + 48, size: 13, minSize: 8, maxWidth: D.gridWidth,
                               anchor: "start", cssClass: "legend", extra: "fill=\"\(D.muted)\"").svg)
        y += 60
        for section in content.sections {
            y += 24
            body.append("<g class=\"section\" id=\"\(section.id)\">")
            body.append(FittedText(text: section.title, x: m, y: y + 18, size: 18, minSize: 10, maxWidth: D.gridWidth,
                                   anchor: "start", bold: true, cssClass: "section-title").svg)
            y += 26
            for note in section.notes {
                body.append(FittedText(text: note, x: m, y: y + 12, size: 12, minSize: 7, maxWidth: D.gridWidth,
                                       anchor: "start", cssClass: "note", extra: "fill=\"\(D.muted)\"").svg)
                y += 16
            }
            y += 6
            body.append(D.grid(section, x: m, y: y))
            body.append("</g>")
            y += D.gridHeight(for: section)
        }
        let height = y + m
        let size = "width=\"\(Markup.num(width))\" height=\"\(Markup.num(height))\" viewBox=\"0 0 \(Markup.num(width)) \(Markup.num(height))\""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" \(size) font-family="\(Self.fontFamily)" fill="\(D.ink)">
            <title>\(Markup.escape(content.title)) — TAP cheat sheet</title>
            <rect width="100%" height="100%" fill="#fff"/>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    /// A small hand with the finger initials under it, explaining the glyph.
    func legendHand(x: Double, y: Double) -> String {
        typealias D = CheatsheetDrawing
        let cx = x, cy = y + 8, scale = 1.0
        var out = "<g class=\"legend-hand\">"
        for (bit, offset) in D.fingerOffsets.enumerated() {
            let fx = cx + offset.dx * scale, fy = cy + offset.dy * scale
            out += "<circle cx=\"\(Markup.num(fx))\" cy=\"\(Markup.num(fy))\" r=\"8.5\" fill=\"#fff\" stroke=\"\(D.fingerUpStroke)\" stroke-width=\"1.2\"/>"
            let initial = Chord.fingerNames[bit].prefix(1).uppercased()
            out += "<text x=\"\(Markup.num(fx))\" y=\"\(Markup.num(fy + 4))\" font-size=\"11\" text-anchor=\"middle\" fill=\"\(D.muted)\">\(initial)</text>"
        }
        return out + "</g>"
    }

    /// The HTML page: one `<section>` per layer (and gestures), each with an inline SVG grid.
    ///
    /// Print CSS sets A4, starts every section after the first on a new page and keeps a grid
    /// from being split; on screen the sections simply follow each other.
    public func html() -> String {
        typealias D = CheatsheetDrawing
        var sections: [String] = []
        for section in content.sections {
            let h = D.gridHeight(for: section)
            let notes = section.notes.map { "<p class=\"note\">\(Markup.escape($0))</p>" }.joined(separator: "\n")
            sections.append("""
                <section id="\(section.id)">
                <h2>\(Markup.escape(section.title))</h2>
                \(notes)
                <svg class="grid" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 \(Markup.num(D.gridWidth + 4)) \(Markup.num(h + 4))" role="img" aria-label="\(Markup.escape(section.title))">
                \(D.grid(section, x: 0, y: 0))
                </svg>
                </section>
                """)
        }
        let title = Markup.escape(content.title)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) — TAP cheat sheet</title>
            <style>
            \(Self.css)
            </style>
            </head>
            <body>
            <header>
            <div>
            <h1>\(title)</h1>
            <p class="legend">\(Markup.escape(legend))</p>
            </div>
            <svg class="legend-hand" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 110 44" width="110" height="44">\(legendHand(x: 55, y: 19))</svg>
            </header>
            \(sections.joined(separator: "\n"))
            </body>
            </html>

            """
    }

    static let css = """
        @page { size: A4; margin: 12mm; }
        html { background: #fff; color: #111; font-family: \(fontFamily); }
        body { max-width: 960px; margin: 0 auto; padding: 16px; }
        header { display: flex; justify-content: space-between; align-items: center; gap: 16px; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 0 0 2px; }
        .legend { font-size: 12px; color: #444; margin: 0; }
        .note { font-size: 11px; color: #555; margin: 0 0 2px; }
        section { margin-top: 18px; }
        svg.grid { display: block; width: 100%; height: auto; margin-top: 6px; }
        svg { font-family: \(fontFamily); }
        @media print {
          body { max-width: none; padding: 0; }
          section + section { break-before: page; }
          section, svg.grid { break-inside: avoid; }
        }
        """
}
