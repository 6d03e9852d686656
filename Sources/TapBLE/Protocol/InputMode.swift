/// The device's input mode, written to NUS RX as `03 0C 00 <mode> [sensitivities]` (§3.1).
public enum InputMode: Sendable, Hashable, CustomStringConvertible {
    /// HID keyboard/mouse only, no events; the device boots in it.
    case text
    /// Events only, no HID typing. The daemon's default: BlueZ's HoG plugin would otherwise
    /// feed the kernel a second copy of every key.
    case controller
    /// Events plus HID mouse. Byte 0x03 (iOS, Windows, Go); Android uses 0x04 (see ``modeByte``).
    case controllerWithMouseHID
    /// Events plus full HID ("Controller+Text"), byte 0x05.
    case controllerWithFullHID
    /// Raw sensor stream with the given sensitivities.
    case raw(RawSensitivity)

    /// The mode byte.
    public var modeByte: UInt8 {
        switch self {
        case .text: 0x00
        case .controller: 0x01
        case .controllerWithMouseHID: 0x03
        case .controllerWithFullHID: 0x05
        case .raw: 0x0A
        }
    }

    /// The NUS RX command.
    public var command: [UInt8] {
        if case .raw(let s) = self {
            return [0x03, 0x0C, 0x00, 0x0A, s.fingerAccelerometer, s.imuGyro, s.imuAccelerometer]
        }
        return [0x03, 0x0C, 0x00, modeByte]
    }

    public var isRaw: Bool { if case .raw = self { true } else { false } }

    /// Parses `text`, `controller`, `controller-mouse`, `controller-text`, `raw` or `raw:F,G,A`.
    public init?(parsing s: String) {
        switch s.lowercased() {
        case "text": self = .text
        case "controller": self = .controller
        case "controller-mouse", "controller+mouse", "controllerwithmousehid": self = .controllerWithMouseHID
        case "controller-text", "controller+text", "controllerwithfullhid": self = .controllerWithFullHID
        case "raw": self = .raw(RawSensitivity())
        default:
            guard s.lowercased().hasPrefix("raw:"), let sens = RawSensitivity(parsing: String(s.dropFirst(4))) else { return nil }
            self = .raw(sens)
        }
    }

    public var description: String {
        switch self {
        case .text: "text"
        case .controller: "controller"
        case .controllerWithMouseHID: "controller-mouse"
        case .controllerWithFullHID: "controller-text"
        case .raw(let s): "raw:\(s.fingerAccelerometer),\(s.imuGyro),\(s.imuAccelerometer)"
        }
    }
}

extension RawSensitivity {
    /// Parses `F,G,A` (finger accelerometer, gyro, IMU accelerometer indices).
    public init?(parsing s: String) {
        let parts = s.split(separator: ",").map { UInt8($0.trimmingCharacters()) }
        guard parts.count == 3, let f = parts[0], let g = parts[1], let a = parts[2] else { return nil }
        self.init(fingerAccelerometer: f, imuGyro: g, imuAccelerometer: a)
        guard isValid else { return nil }
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String { String(self).trimmingASCIIWhitespace() }
}

/// TapXR input type ("XR state"), written to NUS RX as `03 0D 00 <t>` (§3.2).
public enum XRState: UInt8, Sendable, Hashable {
    /// Air mouse only (Python `MOUSE`).
    case airMouse = 1
    /// Tapping only (Python `KEYBOARD`).
    case tapping = 2
    /// The user switches by posture (Python `AUTO`, iOS/Android `userControl`).
    case userControl = 3

    public var command: [UInt8] { [0x03, 0x0D, 0x00, rawValue] }
}
