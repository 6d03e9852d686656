/// Pointer math for one device: velocity packets -> relative motion or wheel, with sub-pixel
/// remainders carried between packets. Pure arithmetic; see ``MouseSettings`` for the curve.
struct PointerState: Sendable, Equatable {
    var scrollMode = false
    var remainderX = 0.0
    var remainderY = 0.0

    mutating func resetRemainders() {
        remainderX = 0
        remainderY = 0
    }

    /// The frame for one packet, or nil when it moves less than one unit (the fraction is kept).
    mutating func frame(vx: Int, vy: Int, settings s: MouseSettings, baseline: KeySet) -> Frame? {
        let x = Double(vx) * (s.invertX ? -1 : 1)
        let y = Double(vy) * (s.invertY ? -1 : 1)
        if scrollMode {
            // Wheel: moving the hand away (negative y) scrolls up (positive wheel) unless natural.
            let dv = -y * s.scrollSensitivity * (s.naturalScroll ? -1 : 1) + remainderY
            let dh = x * s.scrollSensitivity + remainderX
            let (v, h) = (Self.truncate(dv), Self.truncate(dh))
            remainderY = dv - Double(v)
            remainderX = dh - Double(h)
            if v == 0 && h == 0 { return nil }
            return Frame(pressed: baseline, wheel: v, hwheel: h)
        }
        let speed = (x * x + y * y).squareRoot()
        let threshold = max(s.threshold, 0.001)
        let gain = min(s.maxGain, 1 + s.acceleration * max(0, speed - threshold) / threshold)
        let dx = x * s.sensitivity * max(gain, 0) + remainderX
        let dy = y * s.sensitivity * max(gain, 0) + remainderY
        let (rx, ry) = (Self.truncate(dx), Self.truncate(dy))
        remainderX = dx - Double(rx)
        remainderY = dy - Double(ry)
        if rx == 0 && ry == 0 { return nil }
        return Frame(pressed: baseline, relX: rx, relY: ry)
    }

    /// Toward zero, clamped to Int32, so remainders keep their sign and never exceed one unit.
    private static func truncate(_ v: Double) -> Int32 {
        guard v.isFinite else { return 0 }
        return Int32(max(min(v.rounded(.towardZero), Double(Int32.max)), Double(Int32.min)))
    }
}
