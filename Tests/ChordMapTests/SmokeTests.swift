import Testing
@testable import ChordMap

@Test func builtinKeymapLoads() throws {
    let k = KeymapLoader.builtinDefault
    #expect(k.layers.map(\.name) == ["base", "numbers"])
}
