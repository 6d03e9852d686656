import DBus
import TapBLE

/// The daemon's state as `Status()` returns it: an `a{sv}` dictionary on the bus (keys in
/// `docs/control.md`), JSON in `tap-uinput status --json`.
///
/// Decoding is lenient: a missing or mistyped key takes its default, so a newer daemon
/// with more keys, or an older one with fewer, still answers an older or newer client.
public struct ControlStatus: Equatable, Sendable, Codable {
    /// One known device.
    public struct Device: Equatable, Sendable, Codable {
        /// The BLE address (`AA:BB:CC:DD:EE:FF`): the id the engine and signals use.
        public var id: String
        public var name: String
        /// Ready: subscribed and in controller mode, inputs flow.
        public var connected: Bool
        /// Percent; nil when unknown.
        public var battery: Int?
        /// Dotted versions from the Device Information service; nil when unknown.
        public var hardwareVersion: String?
        public var firmwareVersion: String?
        /// The input mode last written (`controller`, `text`, ...); nil when unknown.
        public var mode: String?
        /// The layer the next chord is looked up in.
        public var layer: String
        /// Modifiers armed for the next key only, and locked ones (`KEY_LEFTSHIFT`, ...).
        public var oneShotModifiers: [String]
        public var lockedModifiers: [String]
        /// The keymap this device runs (may differ from the main one by `[match] devices`).
        public var keymap: String
        /// Its file; "" for the built-in keymap.
        public var keymapFile: String
        /// The hand it plays in a pair (`left`, `right`); "" for a device of its own.
        public var role: String
        /// Its Bluetooth name, or its address when it has none (tray, `monitor --json` tooltips).
        public var displayName: String { name.isEmpty ? id : name }

        public init(id: String, name: String, connected: Bool, battery: Int? = nil, hardwareVersion: String? = nil,
                    firmwareVersion: String? = nil, mode: String? = nil, layer: String = "base",
                    oneShotModifiers: [String] = [], lockedModifiers: [String] = [], keymap: String = "",
                    keymapFile: String = "", role: String = "") {
            self.id = id
            self.name = name
            self.connected = connected
            self.battery = battery
            self.hardwareVersion = hardwareVersion
            self.firmwareVersion = firmwareVersion
            self.mode = mode
            self.layer = layer
            self.oneShotModifiers = oneShotModifiers
            self.lockedModifiers = lockedModifiers
            self.keymap = keymap
            self.keymapFile = keymapFile
            self.role = role
        }
    }

    /// The daemon's version string.
    public var version: String
    public var devices: [Device]
    /// The keymap for devices without one of their own; its file ("" = built-in).
    public var keymap: String
    public var keymapFile: String
    /// The file chosen with `SetKeymap`; "" when selection is automatic.
    public var keymapOverride: String
    /// The focused application (empty: nothing, or no focus source), its title and the source
    /// that reported it.
    public var focusApp: String
    public var focusTitle: String
    public var focusSource: String
    /// The focus sources running (`sway`, `x11`, `dbus`, ...).
    public var focusSources: [String]
    /// Every broken keymap file's diagnostics (those files run their last good version).
    public var keymapErrors: [String]
    /// The keyboard layout characters are typed for, as XKB names (`de(nodeadkeys)`, `us,de`),
    /// its active group (from 0) and where it came from (`option`, `keymap`, `x11`, `sway`, ...).
    public var layout: String
    public var layoutGroup: Int
    public var layoutOrigin: String
    /// Every keymap file the daemon has loaded (its last good version for a broken file), by
    /// path -> the keymap's name: what `SetKeymap` can choose from (the tray's keymap menu).
    public var keymaps: [String: String]
    /// Below this percentage a battery is low (`run --battery-low`): the daemon's notification,
    /// the tray's icon and `monitor --json`'s `battery-low` class agree on it.
    public var batteryLowPercent: Int

    public init(version: String = "", devices: [Device] = [], keymap: String = "", keymapFile: String = "",
                keymapOverride: String = "", focusApp: String = "", focusTitle: String = "", focusSource: String = "",
                focusSources: [String] = [], keymapErrors: [String] = [], layout: String = "", layoutGroup: Int = 0,
                layoutOrigin: String = "", keymaps: [String: String] = [:],
                batteryLowPercent: Int = BatteryThreshold.defaultLowPercent) {
        self.version = version
        self.devices = devices
        self.keymap = keymap
        self.keymapFile = keymapFile
        self.keymapOverride = keymapOverride
        self.focusApp = focusApp
        self.focusTitle = focusTitle
        self.focusSource = focusSource
        self.focusSources = focusSources
        self.keymapErrors = keymapErrors
        self.layout = layout
        self.layoutGroup = layoutGroup
        self.layoutOrigin = layoutOrigin
        self.keymaps = keymaps
        self.batteryLowPercent = batteryLowPercent
    }

    /// Whether `device`'s battery is known and below ``batteryLowPercent``.
    public func batteryIsLow(_ device: Device) -> Bool {
        device.battery.map { $0 < batteryLowPercent } ?? false
    }

    // MARK: D-Bus

    /// The `a{sv}` reply of `Status()`.
    public var dbusValue: DBusValue {
        .dictionary([
            "version": .string(version),
            "keymap": .string(keymap),
            "keymap-file": .string(keymapFile),
            "keymap-override": .string(keymapOverride),
            "focus-app": .string(focusApp),
            "focus-title": .string(focusTitle),
            "focus-source": .string(focusSource),
            "focus-sources": .strings(focusSources),
            "keymap-errors": .strings(keymapErrors),
            "layout": .string(layout),
            "layout-group": .uint32(UInt32(clamping: layoutGroup)),
            "layout-origin": .string(layoutOrigin),
            "battery-low": .int32(Int32(clamping: batteryLowPercent)),
            "devices": .array(elementSignature: "a{sv}", devices.map(\.dbusValue)),
            "keymaps": .array(elementSignature: "{ss}", keymaps.sorted { $0.key < $1.key }.map {
                .dictEntry(.string($0.key), .string($0.value))
            }),
        ])
    }

    /// Reads a `Status()` reply; nil when it is not a dictionary at all.
    public init?(dbus value: DBusValue) {
        guard let d = value.dictionary else { return nil }
        self.init(version: d["version"]?.string ?? "",
                  devices: (d["devices"]?.array ?? []).compactMap(Device.init(dbus:)),
                  keymap: d["keymap"]?.string ?? "",
                  keymapFile: d["keymap-file"]?.string ?? "",
                  keymapOverride: d["keymap-override"]?.string ?? "",
                  focusApp: d["focus-app"]?.string ?? "",
                  focusTitle: d["focus-title"]?.string ?? "",
                  focusSource: d["focus-source"]?.string ?? "",
                  focusSources: d["focus-sources"]?.stringArray ?? [],
                  keymapErrors: d["keymap-errors"]?.stringArray ?? [],
                  layout: d["layout"]?.string ?? "",
                  layoutGroup: d["layout-group"]?.int ?? 0,
                  layoutOrigin: d["layout-origin"]?.string ?? "",
                  keymaps: (d["keymaps"]?.dictionary ?? [:]).compactMapValues(\.string),
                  batteryLowPercent: d["battery-low"]?.int ?? BatteryThreshold.defaultLowPercent)
    }
}

extension ControlStatus.Device {
    /// One device's `a{sv}`; unknown values (battery, versions, mode) are left out.
    public var dbusValue: DBusValue {
        var d: [String: DBusValue] = [
            "id": .string(id),
            "name": .string(name),
            "connected": .bool(connected),
            "layer": .string(layer),
            "oneshot-modifiers": .strings(oneShotModifiers),
            "locked-modifiers": .strings(lockedModifiers),
            "keymap": .string(keymap),
            "keymap-file": .string(keymapFile),
            "role": .string(role),
        ]
        if let battery { d["battery"] = .int32(Int32(clamping: battery)) }
        if let hardwareVersion { d["hardware-version"] = .string(hardwareVersion) }
        if let firmwareVersion { d["firmware-version"] = .string(firmwareVersion) }
        if let mode { d["mode"] = .string(mode) }
        return .dictionary(d)
    }

    /// Reads one device entry; nil without an `id`.
    public init?(dbus value: DBusValue) {
        guard let d = value.dictionary, let id = d["id"]?.string else { return nil }
        self.init(id: id, name: d["name"]?.string ?? "", connected: d["connected"]?.bool ?? false,
                  battery: d["battery"]?.int, hardwareVersion: d["hardware-version"]?.string,
                  firmwareVersion: d["firmware-version"]?.string, mode: d["mode"]?.string,
                  layer: d["layer"]?.string ?? "", oneShotModifiers: d["oneshot-modifiers"]?.stringArray ?? [],
                  lockedModifiers: d["locked-modifiers"]?.stringArray ?? [], keymap: d["keymap"]?.string ?? "",
                  keymapFile: d["keymap-file"]?.string ?? "", role: d["role"]?.string ?? "")
    }
}
