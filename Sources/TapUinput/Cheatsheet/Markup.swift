/// Escaping and text measuring for the cheat sheet's SVG and HTML.
///
/// Everything that comes from a keymap (its name, layer names, key labels, `text(...)` and `run`
/// arguments) passes through ``escape(_:)`` before it reaches the output, so a keymap that binds
/// `<`, `&` or `"` cannot break the markup.
enum Markup {
    /// `s` made safe for XML/HTML text and for attribute values in either kind of quotes.
    ///
    /// Replaces `& < > " '` with entities, and C0 control characters other than tab and newline
    /// with U+FFFD: XML 1.0 forbids them even as character references, and a TOML quoted key may
    /// contain them (`"\u0001"`).
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value):
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A rough width of `s` set in DejaVu Sans at `fontSize` (bold is about 10% wider).
    ///
    /// Used only to pick a font size that keeps a label inside its card; SVG has no text
    /// measurement without script, so an overestimate is the safe side (the label comes out a
    /// little small rather than cut off).
    static func estimatedWidth(_ s: String, fontSize: Double, bold: Bool = false) -> Double {
        var em = 0.0
        for c in s {
            switch c {
            case "i", "l", "j", "'", "|", ".", ",", ":", ";", "!", "`", "I", " ", "f", "t", "r", "(", ")", "[", "]":
                em += 0.36
            case "m", "w", "M", "W", "@", "%", "—", "…", "⌫", "⏎", "→", "←", "↑", "↓", "×":
                em += 0.95
            case _ where c.isASCII && c.isUppercase:
                em += 0.72
            case _ where c.isASCII:
                em += 0.62
            default:
                em += 1.0
            }
        }
        return em * fontSize * (bold ? 1.1 : 1.0)
    }

    /// `s` cut to at most `limit` characters, with an ellipsis when cut.
    static func truncated(_ s: String, to limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
    }

    /// Formats a coordinate without a trailing `.0`, so the SVG stays short and diffable.
    static func num(_ v: Double) -> String {
        let rounded = (v * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// One `<text>` element that fits `maxWidth`: the font shrinks from `size` down to `minSize`, and
/// below that the glyphs are squeezed with `textLength`, so a label never runs out of its box.
struct FittedText {
    var text: String
    var x: Double
    var y: Double
    var size: Double
    var minSize: Double
    var maxWidth: Double
    /// `start`, `middle` or `end`.
    var anchor = "middle"
    var bold = false
    var cssClass: String?
    /// Further attributes, already escaped (`fill="#666"`).
    var extra = ""

    var svg: String {
        let natural = Markup.estimatedWidth(text, fontSize: size, bold: bold)
        let fitted = natural > maxWidth ? max(minSize, size * maxWidth / natural) : size
        let squeeze = Markup.estimatedWidth(text, fontSize: fitted, bold: bold) > maxWidth
        var attrs = "x=\"\(Markup.num(x))\" y=\"\(Markup.num(y))\" font-size=\"\(Markup.num(fitted))\""
        if anchor != "start" { attrs += " text-anchor=\"\(anchor)\"" }
        if bold { attrs += " font-weight=\"bold\"" }
        if let cssClass { attrs += " class=\"\(cssClass)\"" }
        if !extra.isEmpty { attrs += " " + extra }
        if squeeze { attrs += " textLength=\"\(Markup.num(maxWidth))\" lengthAdjust=\"spacingAndGlyphs\"" }
        return "<text \(attrs)>\(Markup.escape(text))</text>"
    }
}
