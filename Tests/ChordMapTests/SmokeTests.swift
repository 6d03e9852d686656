import Testing
@testable import ChordMap
@Test func moduleLinks() { #expect(Bool(true)) }
