import Testing
@testable import TapBLE
@Test func moduleLinks() { #expect(Bool(true)) }
