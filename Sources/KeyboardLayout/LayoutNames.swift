/// A keyboard layout by its XKB names, as `setxkbmap`, `localectl set-x11-keymap` and compositors'
/// `xkb_layout` settings take them (rules `evdev`, model `pc105`).
///
/// `layout` may list several groups (`"de,us"`); `variant` then lists one variant per group.
public struct LayoutNames: Hashable, Sendable, CustomStringConvertible {
    public var layout: String
    public var variant: String
    public var options: String

    public init(layout: String, variant: String = "", options: String = "") {
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    /// Parses the spellings users write: `de`, `de(nodeadkeys)`, `de:nodeadkeys` (XKB's own
    /// `layout(variant)` form and the colon form), `fr+azerty` (GNOME's input source ids),
    /// `us,de`. Nil for an empty or malformed name.
    public init?(spelling: String) {
        let s = spelling.trimmingCharacters(in: " \t")
        guard !s.isEmpty else { return nil }
        var layouts: [String] = []
        var variants: [String] = []
        for part in s.split(separator: ",", omittingEmptySubsequences: false) {
            var name = Substring(String(part).trimmingCharacters(in: " \t"))
            var variant: Substring = ""
            if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
                variant = name[name.index(after: open)..<name.index(before: name.endIndex)]
                name = name[..<open]
            } else if let colon = name.firstIndex(where: { $0 == ":" || $0 == "+" }) {
                variant = name[name.index(after: colon)...]
                name = name[..<colon]
            }
            guard !name.isEmpty, name.allSatisfy(Self.isNameCharacter), variant.allSatisfy(Self.isNameCharacter) else { return nil }
            layouts.append(String(name))
            variants.append(String(variant))
        }
        self.init(layout: layouts.joined(separator: ","),
                  variant: variants.allSatisfy(\.isEmpty) ? "" : variants.joined(separator: ","))
    }

    /// `de(nodeadkeys)`, `us,de`: the form ``init(spelling:)`` reads back.
    public var description: String {
        let layouts = layout.split(separator: ",", omittingEmptySubsequences: false)
        let variants = variant.split(separator: ",", omittingEmptySubsequences: false)
        return layouts.enumerated().map { i, l in
            i < variants.count && !variants[i].isEmpty ? "\(l)(\(variants[i]))" : String(l)
        }.joined(separator: ",")
    }

    private static func isNameCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-")
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
