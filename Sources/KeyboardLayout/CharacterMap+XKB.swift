import CXKBCommon
import ChordMap
import Glibc

extension CharacterMap {
    /// The characters `report`'s layout types, compiled with libxkbcommon and inverted (see
    /// ``LayoutInversion``). Costs a few milliseconds: call it when the layout changes.
    ///
    /// `composeLocale` picks the compose table for dead keys; by default the process's locale
    /// (`LC_ALL`, `LC_CTYPE`, `LANG`), as applications resolve them.
    public init(layout report: LayoutReport, composeLocale: String = CharacterMap.environmentLocale) throws(LayoutError) {
        let xkb = try XKBKeymap(report)
        self.init(xkb, composeLocale: composeLocale)
    }

    /// The characters a compiled keymap types in its group.
    public init(_ xkb: XKBKeymap, composeLocale: String = CharacterMap.environmentLocale) {
        var inversion = LayoutInversion(xkb)
        self.init(name: xkb.name, strokes: inversion.strokes(composeLocale: composeLocale),
                  usPositions: CharacterMap.usPositions)
    }

    /// US QWERTY's key for each character, compiled once from xkeyboard-config's `us` layout.
    static let usPositions: [Character: KeyStroke] = {
        guard let us = try? XKBKeymap(LayoutReport.fallback) else { return [:] }
        var inversion = LayoutInversion(us)
        return inversion.strokes(composeLocale: "C").compactMapValues { $0.count == 1 ? $0[0] : nil }
    }()

    /// The locale applications take compose sequences from: `LC_ALL`, `LC_CTYPE`, `LANG`, else `C`.
    public static var environmentLocale: String {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return "C"
    }
}
