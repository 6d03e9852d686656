import ChordMap

/// SVG pieces of the sheet: hands, cards and card grids.
///
/// Every element is placed with absolute coordinates (no nested transforms), so the browser test
/// can read a finger's `cx`/`cy` from the SVG and look at that pixel in the rendered picture.
/// Colours are attributes, not CSS, so a standalone `.svg` looks the same as the inline copy in HTML.
enum CheatsheetDrawing {
    static let cardWidth = 170.0
    /// Card height in sections with double/triple taps (two extra label rows) and without.
    static let tallCardHeight = 132.0
    static let shortCardHeight = 94.0
    static let gap = 8.0
    static let columns = 5
    /// Width of a card grid: five cards and four gaps.
    static let gridWidth = Double(columns) * cardWidth + Double(columns - 1) * gap
    static let fingerRadius = 9.0
    /// Fingertip offsets from the hand's centre, thumb to pinky: a right hand seen from above,
    /// thumb on the left as in the `x....` spelling; the middle finger reaches furthest.
    static let fingerOffsets: [(dx: Double, dy: Double)] = [(-44, 12), (-22, -6), (0, -11), (22, -6), (42, 4)]

    static let ink = "#111"
    static let muted = "#666"
    static let fingerUpStroke = "#888"

    /// Five circles, the chord's fingers filled. Classes `finger down` / `finger up` mark which is which.
    static func hand(_ chord: Chord, cx: Double, cy: Double, radius: Double = fingerRadius) -> String {
        var out = "<g class=\"hand\" data-chord=\"\(chord.rawValue)\">"
        for (bit, offset) in fingerOffsets.enumerated() {
            let down = chord.rawValue & (1 << bit) != 0
            let paint = down ? "fill=\"\(ink)\"" : "fill=\"#fff\" stroke=\"\(fingerUpStroke)\" stroke-width=\"1.5\""
            out += "<circle class=\"finger \(down ? "down" : "up")\" data-finger=\"\(Chord.fingerNames[bit])\""
                + " cx=\"\(Markup.num(cx + offset.dx))\" cy=\"\(Markup.num(cy + offset.dy))\" r=\"\(Markup.num(radius))\" \(paint)/>"
        }
        return out + "</g>"
    }

    /// Height of one card in `section`.
    static func cardHeight(for section: CheatsheetSection) -> Double {
        section.cards.contains(where: \.hasMultiTap) ? tallCardHeight : shortCardHeight
    }

    /// Height of `section`'s card grid.
    static func gridHeight(for section: CheatsheetSection) -> Double {
        let rows = (section.cards.count + columns - 1) / columns
        return rows == 0 ? 0 : Double(rows) * cardHeight(for: section) + Double(rows - 1) * gap
    }

    /// All cards of `section`, five to a row, with the grid's top-left corner at (`x`, `y`).
    static func grid(_ section: CheatsheetSection, x: Double, y: Double) -> String {
        let height = cardHeight(for: section)
        return section.cards.enumerated().map { i, card in
            card.svg(x: x + Double(i % columns) * (cardWidth + gap), y: y + Double(i / columns) * (height + gap),
                     height: height)
        }.joined(separator: "\n")
    }
}

extension CheatsheetCard {
    /// The card as an SVG group with its top-left corner at (`x`, `y`).
    ///
    /// Layout: the hand (or gesture name) at the top, the single-tap label large under it, then one
    /// row per bound multi-tap count: a dark `×2` / `×3` badge and its label. `×2` is always the
    /// upper row, so a card with only a triple leaves that row empty rather than moving `×3` up.
    func svg(x: Double, y: Double, height: Double) -> String {
        typealias D = CheatsheetDrawing
        let w = D.cardWidth
        let cx = x + w / 2
        var out = "<g class=\"card\">"
        out += "<rect x=\"\(Markup.num(x))\" y=\"\(Markup.num(y))\" width=\"\(Markup.num(w))\" height=\"\(Markup.num(height))\""
            + " rx=\"8\" fill=\"#fff\" stroke=\"#bbb\"/>"
        switch glyph {
        case .chord(let chord):
            out += "<text class=\"code\" x=\"\(Markup.num(x + 8))\" y=\"\(Markup.num(y + 16))\" font-size=\"11\" fill=\"\(D.muted)\">\(chord.rawValue)</text>"
            out += D.hand(chord, cx: cx, cy: y + 32)
        case .named(let name):
            out += FittedText(text: name, x: cx, y: y + 34, size: 15, minSize: 9, maxWidth: w - 16,
                              cssClass: "gesture", extra: "font-style=\"italic\" fill=\"\(D.muted)\"").svg
        }
        let tall = height >= D.tallCardHeight
        // Two-line labels sit higher in tall cards, clear of the ×2 row below.
        out += Self.tapLabel(tap, cx: cx, baseline: y + (tall ? 77 : 78), maxWidth: w - 16,
                             twoLineBaselines: tall ? (y + 66, y + 83) : (y + 68, y + 86))
        for (row, (badge, label)) in [("×2", double), ("×3", triple)].enumerated() {
            guard let label else { continue }
            out += badgeRow(badge: badge, label: label, cx: cx, baseline: y + 102 + Double(row) * 22,
                            cssClass: row == 0 ? "double" : "triple")
        }
        return out + "</g>"
    }

    /// The single-tap label, bold: one line from 22 px down to 15 px; a longer label is split at
    /// the space nearest its middle into two lines at `twoLineBaselines`, which then shrink (and at
    /// worst squeeze) to fit. Two readable lines beat one line too small to read on paper.
    static func tapLabel(_ text: String, cx: Double, baseline: Double, maxWidth: Double,
                         twoLineBaselines: (Double, Double)) -> String {
        let oneLine = FittedText(text: text, x: cx, y: baseline, size: 22, minSize: 15, maxWidth: maxWidth,
                                 bold: true, cssClass: "label tap")
        guard Markup.estimatedWidth(text, fontSize: 15, bold: true) > maxWidth, let (first, second) = split(text) else {
            return oneLine.svg
        }
        return [(first, twoLineBaselines.0), (second, twoLineBaselines.1)].map { line, y in
            FittedText(text: line, x: cx, y: y, size: 16, minSize: 10, maxWidth: maxWidth, bold: true, cssClass: "label tap").svg
        }.joined()
    }

    /// `text` split at the space that best balances the two halves; nil if it has no inner space.
    static func split(_ text: String) -> (String, String)? {
        let chars = Array(text)
        let spaces = chars.indices.filter { chars[$0] == " " && $0 > 0 && $0 < chars.count - 1 }
        guard let best = spaces.min(by: { abs(2 * $0 - chars.count) < abs(2 * $1 - chars.count) }) else { return nil }
        return (String(chars[..<best]), String(chars[(best + 1)...]))
    }

    /// A `×2 label` row centred on `cx`: a dark rounded badge, then the label.
    private func badgeRow(badge: String, label: String, cx: Double, baseline: Double, cssClass: String) -> String {
        let badgeWidth = 26.0, space = 6.0, size = 18.0, maxLabel = CheatsheetDrawing.cardWidth - 16 - badgeWidth - space
        let natural = Markup.estimatedWidth(label, fontSize: size, bold: true)
        let labelWidth = min(maxLabel, natural)
        let left = cx - (badgeWidth + space + labelWidth) / 2
        var out = "<g class=\"multi \(cssClass)\">"
        out += "<rect x=\"\(Markup.num(left))\" y=\"\(Markup.num(baseline - 14))\" width=\"\(Markup.num(badgeWidth))\" height=\"17\" rx=\"4\" fill=\"#333\"/>"
        out += "<text class=\"badge\" x=\"\(Markup.num(left + badgeWidth / 2))\" y=\"\(Markup.num(baseline - 1.5))\" font-size=\"12\""
            + " font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">\(badge)</text>"
        out += FittedText(text: label, x: left + badgeWidth + space, y: baseline, size: size, minSize: 10,
                          maxWidth: maxLabel, anchor: "start", bold: true, cssClass: "label").svg
        return out + "</g>"
    }
}
