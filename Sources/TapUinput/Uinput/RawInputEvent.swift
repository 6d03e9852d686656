import CEvdev

/// One kernel input event as written to a uinput device: `type`, `code`, `value`
/// (the fields of `struct input_event` without the timestamp, which the kernel fills in).
public struct RawInputEvent: Hashable, Sendable, CustomStringConvertible {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type; self.code = code; self.value = value
    }

    public static func key(_ code: UInt16, _ down: Bool) -> RawInputEvent {
        RawInputEvent(type: EventType.key, code: code, value: down ? 1 : 0)
    }
    public static func rel(_ code: UInt16, _ value: Int32) -> RawInputEvent {
        RawInputEvent(type: EventType.rel, code: code, value: value)
    }
    public static var synReport: RawInputEvent { RawInputEvent(type: EventType.syn, code: UInt16(SYN_REPORT), value: 0) }

    /// `KEY_A 1`, `REL_X -3`, `SYN_REPORT 0`: names from libevdev, as evtest prints them.
    public var description: String {
        let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
        return "\(name ?? "\(type):\(code)") \(value)"
    }
}

/// Event type numbers from `linux/input-event-codes.h`, typed as `UInt16` once here so the
/// rest of the module is free of `UInt16(EV_KEY)` noise. Computed, not stored: constants then
/// fold at compile time instead of costing a lazy-global check on every event.
public enum EventType {
    public static var syn: UInt16 { UInt16(EV_SYN) }
    public static var key: UInt16 { UInt16(EV_KEY) }
    public static var rel: UInt16 { UInt16(EV_REL) }
}

/// Relative axis codes the pointer device reports.
public enum RelativeAxis {
    public static var x: UInt16 { UInt16(REL_X) }
    public static var y: UInt16 { UInt16(REL_Y) }
    public static var wheel: UInt16 { UInt16(REL_WHEEL) }
    public static var hwheel: UInt16 { UInt16(REL_HWHEEL) }
    public static var wheelHiRes: UInt16 { UInt16(REL_WHEEL_HI_RES) }
    public static var hwheelHiRes: UInt16 { UInt16(REL_HWHEEL_HI_RES) }
}
