import CEvdev

/// The two virtual devices TapUinput creates, and what each can report.
///
/// Two devices, like keyd: desktops classify an input device by its capabilities, and one
/// device with both letter keys and relative axes is treated inconsistently (a "keyboard
/// with a mouse" confuses libinput's device tagging and some compositors' per-device
/// settings). Names start with "TapUinput" so udev rules and libinput quirks can match them.
///
/// IDs: bus `BUS_VIRTUAL` (0x06) says honestly that the events are synthesized; libinput then
/// tags the keyboard as *external* (no `ID_INPUT_KEYBOARD_INTEGRATION=internal`), which is
/// right for a wearable: typing on the TAP does not trigger disable-while-typing on a
/// laptop's touchpad. Vendor 0x7461 ("ta") and products 0x0001/0x0002 are not a registered
/// USB pair, so no hwdb entry or libinput quirk meant for real hardware matches them.
public struct DeviceProfile: Sendable {
    public enum Role: Sendable, Hashable { case keyboard, pointer }

    public let role: Role
    public let name: String
    public let bus: UInt16 = UInt16(BUS_VIRTUAL)
    public let vendor: UInt16 = 0x7461
    public let product: UInt16
    /// Key and button codes enabled on the device (`EV_KEY`).
    public let keys: [UInt16]
    /// Relative axes enabled on the device (`EV_REL`).
    public let relativeAxes: [UInt16]
    /// Whether the kernel autorepeats held keys (`EV_REP`).
    public let autorepeat: Bool

    init(role: Role, name: String, product: UInt16, keys: [UInt16], relativeAxes: [UInt16], autorepeat: Bool) {
        self.role = role; self.name = name; self.product = product
        self.keys = keys; self.relativeAxes = relativeAxes; self.autorepeat = autorepeat
    }

    /// Every key a keymap can name: `KEY_ESC`..`KEY_MICMUTE` and `KEY_OK`..`KEY_KBD_LCD_MENU5`,
    /// without the button ranges (a "keyboard" with joystick or D-pad buttons is classified as
    /// a joystick by udev's input_id).
    public static let keyboard = DeviceProfile(
        role: .keyboard, name: "TapUinput keyboard", product: 0x0001,
        keys: Array(1..<0x100) + Array(0x160..<0x220) + Array(0x230..<0x2c0),
        relativeAxes: [], autorepeat: true)

    /// Relative motion, both wheels with their high-resolution twins, five mouse buttons.
    public static let pointer = DeviceProfile(
        role: .pointer, name: "TapUinput pointer", product: 0x0002,
        keys: [BTN_LEFT, BTN_RIGHT, BTN_MIDDLE, BTN_SIDE, BTN_EXTRA].map { UInt16($0) },
        relativeAxes: [RelativeAxis.x, RelativeAxis.y, RelativeAxis.wheel, RelativeAxis.hwheel,
                       RelativeAxis.wheelHiRes, RelativeAxis.hwheelHiRes],
        autorepeat: false)

    /// The device a key or button code belongs to: mouse buttons (`BTN_MOUSE` range) to the
    /// pointer, everything else to the keyboard.
    public static func role(forKey code: UInt16) -> Role {
        (UInt16(BTN_MOUSE)..<UInt16(BTN_JOYSTICK)).contains(code) ? .pointer : .keyboard
    }
}
