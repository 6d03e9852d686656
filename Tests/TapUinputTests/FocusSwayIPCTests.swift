import Testing
@testable import TapUinput

/// The i3/sway IPC framing on its own: byte-at-a-time arrival and a corrupt stream.
@Suite struct FocusSwayIPCTests {
    @Test func framesSurviveArbitrarySplits() throws {
        let stream = SwayIPC.encode(rawType: SwayIPC.windowEvent, payload: Array(#"{"change":"focus"}"#.utf8))
            + SwayIPC.encode(.getTree, payload: "{}")
        var decoder = SwayIPC.Decoder()
        var got: [(UInt32, String)] = []
        for byte in stream {
            decoder.append([byte])
            while let m = try decoder.next() { got.append((m.type, String(decoding: m.payload, as: UTF8.self))) }
        }
        #expect(got.map(\.0) == [0x8000_0003, 4])
        #expect(got.map(\.1) == [#"{"change":"focus"}"#, "{}"])
    }

    @Test func wrongMagicIsAnError() {
        var decoder = SwayIPC.Decoder()
        decoder.append(Array("i3-ipX".utf8) + [UInt8](repeating: 0, count: 8))
        #expect(throws: SwayIPC.FramingError.self) { try decoder.next() }
    }

    @Test func headerLayoutIsMagicLengthType() {
        #expect(SwayIPC.encode(.subscribe, payload: "[]") ==
                Array("i3-ipc".utf8) + [2, 0, 0, 0] + [2, 0, 0, 0] + Array("[]".utf8))
    }
}
