import ChordMap
import KeyboardLayout

/// Layouts for the engine tests, compiled by libxkbcommon as the daemon does.
enum TestLayout {
    /// US QWERTY: what the `.t` fixtures and engine tests type on.
    static let us = CharacterMap(try! XKBKeymap(.fallback), composeLocale: "C")
    /// Reads typed keys back as text on US QWERTY (a fresh keyboard state each time).
    static func usDecoder() -> XKBTextDecoder { XKBTextDecoder(try! XKBKeymap(.fallback), composeLocale: "C") }
}
