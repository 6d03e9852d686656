import TestKit
import Testing
@testable import TapBLE

/// Properties every notification decoder keeps on any input (tap-protocol.md §2): every length
/// 0...64 with random bytes, and every one-byte mutation of the known-good vectors. A decoder
/// returns a value or nil (counted as malformed by the session); it never traps, and what it
/// accepts follows from the length and the bytes it documents. Seeded, so failures reproduce.
@Suite("Decoder properties")
struct DecoderPropertyTests {
    typealias Rng = SplitMix

    /// Known-good notifications, one per decoder (tap-protocol.md §9 and the SDK test vectors).
    static let vectors: [(name: String, bytes: [UInt8])] = [
        ("tap", [0x05, 0x2C, 0x01, 0x10]),
        ("mouse", [0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x20, 0x00, 0x30]),
        ("air state", [0x14, 0x01]),
        ("air gesture", [0x0A]),
        ("hand state", [0x65]),
        ("raw imu+fingers", [0xE8, 0x03, 0, 0] + [UInt8](repeating: 1, count: 12) + [0xE9, 0x03, 0, 0x80] + [UInt8](repeating: 2, count: 30)),
        ("v2 mouse", [0, 0, 0, 0, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]),
        ("v2 tap", [1, 2, 0, 0, 0x1F]),
        ("v2 gesture", [1, 3, 0, 0, 0x69]),
        ("v2 standby", [2, 0, 0, 0, 1]),
        ("v2 config", [3, 5, 0, 0, 0xAA, 0xBB]),
    ]

    /// Runs every decoder on `b` and checks what each accepts. Returns how many decoded.
    @discardableResult
    static func decodeAll(_ b: [UInt8], sensitivity: RawSensitivity = .init()) -> Int {
        b.withUnsafeBytes { p in
            var n = 0
            let tap = TapPacket.decode(p)
            #expect((tap != nil) == (!b.isEmpty && b[0] <= 31), "tap \(b)")
            if let tap {
                n += 1
                #expect(tap.fingers == b[0] && (tap.interval != nil) == (b.count >= 3) && (tap.keyboardState != nil) == (b.count >= 4))
                #expect(tap.keyboardState.map { (1...3).contains($0.repeatCount) } ?? true)
            }
            let mouse = MousePacket.decode(p)
            #expect((mouse != nil) == (b.count >= 10), "mouse \(b)")
            if let mouse { n += 1; #expect((mouse.orientation != nil) == (b.count >= 16) && mouse.messageType == b[0]) }
            let air = AirGestureMessage.decode(p)
            #expect((air == nil) == (b.isEmpty || (b[0] == 0x14 && b.count < 2)), "air \(b)")
            if air != nil { n += 1 }
            if let raw = RawSensorRecord.decode(p, sensitivity: sensitivity) {
                n += 1
                #expect(!raw.isEmpty)
                let used = raw.reduce(0) { $0 + 4 + 2 * $1.raw.count }
                #expect(used <= b.count)
                #expect(raw.allSatisfy { $0.raw.count == ($0.kind == .imu ? 6 : 15) && $0.values.allSatisfy(\.isFinite) && $0.timestamp < 1 << 31 })
            } else {
                // Nil only when there is no whole record: too short, a zero meta word first, or a cut record.
                #expect(b.count < 10 || b.prefix(4).allSatisfy { $0 == 0 } || !wholeRecords(b), "raw \(b)")
            }
            let v2 = V2Frame.decode(p, sensitivity: sensitivity)
            if b.count < 4 { #expect(v2 == nil) }
            if case .tap(let t)? = v2 { #expect(t.fingers <= 31) }
            if case .configAnswer(let item, let payload)? = v2 { #expect(item == b[1] && payload == Array(b[4...])) }
            if v2 != nil { n += 1 }
            return n
        }
    }

    /// Whether `b` is a sequence of whole raw records up to its end or a zero meta word.
    static func wholeRecords(_ b: [UInt8]) -> Bool {
        var i = 0
        while i + 4 <= b.count {
            let meta = b[i..<(i + 4)].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
            if meta == 0 { return true }
            i += 4 + 2 * (meta & 0x8000_0000 != 0 ? 15 : 6)
            if i > b.count { return false }
        }
        return true
    }

    @Test func everyLengthUpTo64WithRandomBytes() {
        var rng = Rng(seed: 7)
        var decoded = 0
        for length in 0...64 {
            for _ in 0..<60 {
                let b = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let s = RawSensitivity(fingerAccelerometer: .random(in: 0...255, using: &rng), imuGyro: .random(in: 0...255, using: &rng),
                                       imuAccelerometer: .random(in: 0...255, using: &rng))
                decoded += Self.decodeAll(b, sensitivity: s)
            }
        }
        #expect(decoded > 5000)   // the random buffers do reach the decoders' bodies
    }

    /// Zero bytes, all-ones bytes and the boundary values, at every length.
    @Test func everyLengthUpTo64WithExtremeBytes() {
        for length in 0...64 {
            for fill: UInt8 in [0x00, 0x1F, 0x20, 0x14, 0x7F, 0x80, 0xFF] {
                Self.decodeAll([UInt8](repeating: fill, count: length))
            }
        }
    }

    /// Every byte of every vector set to every value: 256 mutants per byte, each decodes or is nil.
    @Test(arguments: vectors.map(\.name))
    func everyOneByteMutationOfAKnownGoodVector(_ name: String) {
        let good = Self.vectors.first { $0.name == name }!.bytes
        #expect(Self.decodeAll(good) >= 1, "the vector itself decodes")
        for i in good.indices {
            for v in 0...255 {
                var b = good
                b[i] = UInt8(v)
                Self.decodeAll(b)
            }
        }
        // And every truncation and one-byte extension.
        for n in 0..<good.count { Self.decodeAll(Array(good.prefix(n))) }
        for v: UInt8 in [0, 1, 0xFF] { Self.decodeAll(good + [v]) }
    }

    /// A tap notification with no fingers carries only the keyboard state: it is a valid packet
    /// (not counted as malformed) with fingers 0, which no chord has (`Chord(rawValue: 0)` is
    /// nil in ChordMap, so the daemon does not type it).
    @Test func fingersZeroIsAStateOnlyPacket() throws {
        let p = try #require([UInt8]([0x00, 0x00, 0x00, 0x01]).withUnsafeBytes { TapPacket.decode($0) })
        #expect(p.fingers == 0)
        #expect(p.keyboardState?.shift == .on)
        for code: UInt8 in 1...31 { #expect([code].withUnsafeBytes { TapPacket.decode($0) }?.fingers == code) }
        for code: UInt8 in 32...255 { #expect([code].withUnsafeBytes { TapPacket.decode($0) } == nil) }
    }

    /// The hand-state filter over random sequences: it reports only changes, only a state seen
    /// at least twice in the last three samples (or the first sample), and two equal samples in a
    /// row always settle it.
    @Test func handStateFilterProperties() {
        var rng = Rng(seed: 11)
        for _ in 0..<300 {
            var filter = HandStateFilter()
            var window: [HandState] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let s = HandState(rawValue: UInt8.random(in: 100...105, using: &rng))!
                let before = filter.current
                window = Array((window + [s]).suffix(3))
                if let r = filter.add(s) {
                    #expect(r != before && filter.current == r)
                    #expect(window.filter { $0 == r }.count >= 2 || (before == nil && window.count == 1))
                } else {
                    #expect(filter.current == before)
                }
                if window.count >= 2 && window[window.count - 2] == s { #expect(filter.current == s) }
            }
            filter.reset()
            #expect(filter.current == nil)
        }
    }

    /// Version strings: whatever parses is in range and prints back to the same number.
    @Test func versionStringsRoundTrip() {
        var rng = Rng(seed: 3)
        let alphabet = Array("0123456789.. \0x-+\n")
        var parsed = 0
        for _ in 0..<5000 {
            let s = String((0..<Int.random(in: 0...10, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            guard let v = VersionNumber.parse(s) else { continue }
            parsed += 1
            #expect((0...999_999).contains(v), "\(s)")
            #expect(VersionNumber.parse(VersionNumber.string(v)) == v, "\(s)")
        }
        #expect(parsed > 100)
        #expect(VersionNumber.parse(bytes: [0xFF, 0x33, 0x2E, 0x32]) == nil)
        #expect(VersionNumber.parse(bytes: Array("3.2.0".utf8) + [0, 0]) == 30200)
    }

    /// Sensitivity indices outside the documented ranges clamp instead of indexing out of bounds.
    @Test func anySensitivityScalesFinitely() {
        for i in [0, 1, 4, 5, 6, 127, 255] as [UInt8] {
            let s = RawSensitivity(fingerAccelerometer: i, imuGyro: i, imuAccelerometer: i)
            #expect(s.fingerScale.isFinite && s.gyroScale.isFinite && s.imuAccelerometerScale.isFinite)
            #expect(s.isValid == (i <= 4))
        }
    }
}
