/// The i3/sway IPC wire format, shared by i3 and sway.
///
/// Every message, both ways, is `"i3-ipc"`, a 32-bit payload length and a 32-bit type (both
/// in the host's byte order), then the payload (JSON). Events are replies whose type has the
/// high bit set; the window event is `0x80000003`, sway's input event `0x80000015`.
enum SwayIPC {
    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14

    /// Message (request and reply) types used here.
    enum MessageType: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getTree = 4
        case getInputs = 100
    }

    /// Event types (replies with the high bit set).
    static let eventBit: UInt32 = 0x8000_0000
    static let windowEvent: UInt32 = eventBit | 3
    /// sway only: keyboards added, removed, or given another keymap or layout.
    static let inputEvent: UInt32 = eventBit | 21

    /// One framed message.
    static func encode(_ type: MessageType, payload: String = "") -> [UInt8] {
        encode(rawType: type.rawValue, payload: Array(payload.utf8))
    }

    static func encode(rawType: UInt32, payload: [UInt8]) -> [UInt8] {
        var out = magic
        withUnsafeBytes(of: UInt32(payload.count)) { out += $0 }
        withUnsafeBytes(of: rawType) { out += $0 }
        return out + payload
    }

    /// A malformed stream (wrong magic): the connection cannot be resynchronised.
    struct FramingError: Error {}

    /// Splits a byte stream into messages; feed it whatever `read` returned.
    struct Decoder {
        private var buffer: [UInt8] = []
        private var start = 0
        /// Payloads above this are refused (sway's own limit is far lower for events; a
        /// GET_TREE of a busy session is a few hundred KiB).
        static let maximumPayload = 64 << 20

        mutating func append(_ bytes: [UInt8]) { buffer += bytes }

        /// The next complete message, or nil when more bytes are needed.
        mutating func next() throws(FramingError) -> (type: UInt32, payload: [UInt8])? {
            let available = buffer.count - start
            guard available >= SwayIPC.headerSize else { compact(); return nil }
            guard buffer[start..<start + 6].elementsEqual(SwayIPC.magic) else { throw FramingError() }
            let length = Int(Self.uint32(buffer, at: start + 6))
            let type = Self.uint32(buffer, at: start + 10)
            guard length <= Self.maximumPayload else { throw FramingError() }
            guard available >= SwayIPC.headerSize + length else { compact(); return nil }
            let bodyStart = start + SwayIPC.headerSize
            let payload = Array(buffer[bodyStart..<bodyStart + length])
            start = bodyStart + length
            return (type, payload)
        }

        private mutating func compact() {
            if start > 0 { buffer.removeFirst(start); start = 0 }
        }

        private static func uint32(_ b: [UInt8], at i: Int) -> UInt32 {
            var v: UInt32 = 0
            withUnsafeMutableBytes(of: &v) { $0.copyBytes(from: b[i..<i + 4]) }
            return v
        }
    }
}
