import ChordMap
import DBus
import TapBLE

/// Names of the daemon's control interface on the session bus (`docs/control.md`).
///
/// The GNOME Shell extension and the KWin script (`contrib/`) call ``setFocusMethod`` with
/// exactly these names: changing any of them breaks them.
public enum ControlInterface {
    /// The well-known name the daemon owns on the **session** bus.
    public static let busName = "org.tapuinput.Daemon"
    public static let objectPath = "/org/tapuinput/Daemon"
    public static let interface = "org.tapuinput.Daemon1"

    public static let statusMethod = "Status"
    public static let reloadMethod = "Reload"
    public static let setKeymapMethod = "SetKeymap"
    public static let setFocusMethod = "SetFocus"
    public static let setLayoutMethod = "SetLayout"
    public static let vibrateMethod = "Vibrate"
    public static let setModeMethod = "SetMode"
    public static let watchTapsMethod = "WatchTaps"
    public static let unwatchTapsMethod = "UnwatchTaps"

    /// Signal name -> argument signature.
    public static let signals: [String: String] = [
        "DeviceConnected": "ss",      // id, name
        "DeviceDisconnected": "ss",   // id, reason
        "LayerChanged": "ss",         // device, layer
        "FocusChanged": "ss",         // app_id, title
        "KeymapChanged": "ss",        // name, file ("" = built-in)
        "KeymapError": "s",           // diagnostics text
        "Tap": "sysss",               // device, chord, action, app, layer
    ]

    /// The haptic limits of the device (tap-protocol: on/off durations, 10..2550 ms, at most 18).
    public static let hapticDurationRange = 10...2550
    public static let maxHapticDurations = 18

    /// A hint for when nobody owns ``busName``.
    public static let notRunningMessage =
        "no TapUinput daemon on the session bus: start it with `systemctl --user start tap-uinput`"
}

/// Why a control request failed; sent to the caller as a D-Bus error.
public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name (`org.tapuinput.Error.InvalidKeymap`, ...).
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// A keymap file does not load; the message is every diagnostic, as `check` prints them.
    public static func invalidKeymap(_ error: KeymapError) -> ControlError {
        ControlError(name: "org.tapuinput.Error.InvalidKeymap", message: error.description)
    }

    /// No device with that id (address) or name is known.
    public static func unknownDevice(_ device: String) -> ControlError {
        ControlError(name: "org.tapuinput.Error.UnknownDevice",
                     message: device.isEmpty ? "no Tap device is connected" : "no Tap device \"\(device)\" is connected")
    }

    /// An argument has the right type but a wrong value.
    public static func invalidArgument(_ message: String) -> ControlError {
        ControlError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// Anything else (a write to the device failed, ...).
    public static func failed(_ message: String) -> ControlError {
        ControlError(name: "org.tapuinput.Error.Failed", message: message)
    }

    var dbusError: DBusError { DBusError(name: name, message: message) }

    public var description: String { message.isEmpty ? name : message }
}
