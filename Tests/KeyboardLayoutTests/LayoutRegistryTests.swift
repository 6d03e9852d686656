import KeyboardLayout
import Testing

/// Descriptions as compositors report them, back to names, through the real xkeyboard-config registry.
@Suite struct LayoutRegistryTests {
    @Test(arguments: [
        ("English (US)", "us"), ("German", "de"), ("French", "fr"), ("French (AZERTY)", "fr(azerty)"),
        ("English (Dvorak)", "us(dvorak)"), ("Russian", "ru"), ("Spanish", "es"), ("English (UK)", "gb"),
        ("German (no dead keys)", "de(nodeadkeys)"),
    ])
    func descriptionsMapToTheirLayout(description: String, spelling: String) {
        #expect(LayoutRegistry.names(forDescription: description) == LayoutNames(spelling: spelling))
    }

    @Test func anUnknownDescriptionHasNoNames() {
        #expect(LayoutRegistry.names(forDescription: "Klingon (tlhIngan Hol)") == nil)
        #expect(LayoutRegistry.names(forDescription: "") == nil)
    }
}
