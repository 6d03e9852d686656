import Testing
@testable import TapUinput
@Test func moduleLinks() { #expect(Bool(true)) }
