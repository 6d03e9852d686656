/// One notification from the mouse-data characteristic (`c3ff0006`, §2.2), or the motion
/// payload of a v2 IMU frame (same layout).
public struct MousePacket: Sendable, Hashable {
    /// Byte 0. iOS and Windows only accept 0; Python and web ignore it. Packets with another
    /// value are still delivered (liberal reading) and carry it here.
    public var messageType: UInt8
    public var vx: Int16
    public var vy: Int16
    /// Bytes 5–8, unit undocumented.
    public var dt: UInt32
    /// Byte 9 == 1: "movement is real" / surface detected.
    public var isRealMovement: Bool
    /// Bytes 10–15 (newer firmware): roll, pitch, yaw in degrees.
    public var orientation: Orientation?

    public struct Orientation: Sendable, Hashable {
        public var roll: Int16
        public var pitch: Int16
        public var yaw: Int16
        public init(roll: Int16, pitch: Int16, yaw: Int16) { self.roll = roll; self.pitch = pitch; self.yaw = yaw }
    }

    public init(messageType: UInt8 = 0, vx: Int16, vy: Int16, dt: UInt32 = 0, isRealMovement: Bool,
                orientation: Orientation? = nil) {
        self.messageType = messageType
        self.vx = vx
        self.vy = vy
        self.dt = dt
        self.isRealMovement = isRealMovement
        self.orientation = orientation
    }

    /// Decodes a packet of at least 10 bytes (as iOS/Windows require); nil otherwise.
    public static func decode(_ b: UnsafeRawBufferPointer) -> MousePacket? {
        guard b.count >= 10 else { return nil }
        var p = MousePacket(messageType: b[0], vx: b.int16(at: 1), vy: b.int16(at: 3), dt: b.uint32(at: 5),
                            isRealMovement: b[9] == 1)
        if b.count >= 16 {
            p.orientation = Orientation(roll: b.int16(at: 10), pitch: b.int16(at: 12), yaw: b.int16(at: 14))
        }
        return p
    }
}

extension UnsafeRawBufferPointer {
    /// Little-endian reads; the caller checks bounds.
    @inline(__always) func int16(at i: Int) -> Int16 { Int16(bitPattern: UInt16(self[i]) | UInt16(self[i + 1]) << 8) }
    @inline(__always) func uint32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}
