/// The lines of `tap-uinput monitor --json`: one JSON object per event, each complete (the
/// event's own fields plus the daemon's state right after it), so a status bar or a script
/// reading one line knows everything it shows. Schema in docs/control.md ("monitor --json").
///
/// Every line also carries the fields waybar's `custom` module reads with
/// `"return-type": "json"`: `text`, `tooltip`, `class` and `percentage`.
public enum MonitorJSON {
    /// What a line reports.
    public enum Event: Equatable, Sendable {
        /// A control signal.
        case control(ControlEvent)
        /// The state when the daemon appears (the first line, and after a restart).
        case status
        /// A battery level changed (seen by polling `Status`: batteries have no signal).
        case battery
        /// The daemon left the bus.
        case stopped
    }

    /// The line for `event`; `status` is the daemon's state after it (nil: not running).
    public static func line(_ event: Event, status: ControlStatus?) -> String {
        var members: [(String, JSONValue)] = [("event", .string(name(of: event)))]
        var deviceID: String?
        if case .control(let e) = event {
            switch e {
            case .tap(let device, let chord, let action, _, let layer):
                deviceID = device
                members.append(("tap", .object([("chord", .string(chord?.pattern ?? "")), ("action", .string(action)),
                                                ("layer", .string(layer))])))
            case .deviceConnected(let id, _): deviceID = id
            case .deviceDisconnected(let id, let reason): deviceID = id; members.append(("reason", .string(reason)))
            case .layerChanged(let device, _): deviceID = device
            case .keymapError(let message): members.append(("message", .string(message)))
            case .focusChanged, .keymapChanged: break
            }
        }
        guard let status else {
            return JSONValue.object(members + [("running", .bool(false)), ("text", .string("TAP off")),
                                               ("tooltip", .string("the TapUinput daemon is not running")),
                                               ("class", .array([.string("stopped")]))]).serialized
        }
        let device = status.devices.first { $0.id == deviceID }
            ?? status.devices.first { $0.connected } ?? status.devices.first
        let locked = ControlText.modifierNames(device?.lockedModifiers ?? [])
        let latched = ControlText.modifierNames(device?.oneShotModifiers ?? [])
        let layer = device?.layer ?? "base"
        let connected = device?.connected ?? false
        var batteries: [(String, JSONValue)] = []
        for d in status.devices { if let b = d.battery { batteries.append((d.id, .int(b))) } }
        members += [
            ("running", .bool(true)),
            ("device", .string(device?.id ?? "")), ("name", .string(device?.name ?? "")), ("connected", .bool(connected)),
            ("role", .string(device?.role ?? "")),
            ("layer", .string(layer)),
            ("locks", .array(locked.map { .string($0) })), ("latched", .array(latched.map { .string($0) })),
            ("keymap", .string(device.map { $0.keymap.isEmpty ? status.keymap : $0.keymap } ?? status.keymap)),
            ("app", .string(status.focusApp)), ("title", .string(status.focusTitle)),
            ("battery", .object(batteries)),
        ]
        members += waybar(status, device: device, layer: layer, locked: locked, latched: latched)
        return JSONValue.object(members).serialized
    }

    static func name(of event: Event) -> String {
        switch event {
        case .status: "status"
        case .battery: "battery"
        case .stopped: "stopped"
        case .control(let e):
            switch e {
            case .tap: "tap"
            case .deviceConnected: "connected"
            case .deviceDisconnected: "disconnected"
            case .layerChanged: "layer"
            case .focusChanged: "focus"
            case .keymapChanged: "keymap"
            case .keymapError: "keymap-error"
            }
        }
    }

    /// waybar's fields: `text` the layer, `[locked]` and `(latched)` modifiers (`TAP off`
    /// without a connected device); `tooltip` keymap, focus and every device; `class`
    /// `connected`/`disconnected`, `layer-NAME`, `locked`, `latched`, `battery-low`;
    /// `percentage` the device's battery.
    static func waybar(_ status: ControlStatus, device: ControlStatus.Device?, layer: String,
                       locked: [String], latched: [String]) -> [(String, JSONValue)] {
        let connected = device?.connected ?? false
        var text = connected ? layer : "TAP off"
        if connected, !locked.isEmpty { text += " [" + locked.joined(separator: "+") + "]" }
        if connected, !latched.isEmpty { text += " (" + latched.joined(separator: "+") + ")" }
        var tooltip = ["keymap \(status.keymap)",
                       "focus " + (status.focusApp.isEmpty ? "nothing" : status.focusApp)]
        for d in status.devices {
            var line = d.displayName + (d.role.isEmpty ? "" : " (\(d.role) hand)")
            line += ": \(d.connected ? "connected" : "not connected")"
            if let b = d.battery { line += ", battery \(b) %" }
            if d.connected { line += ", layer \(d.layer)" }
            tooltip.append(line)
        }
        if status.devices.isEmpty { tooltip.append("no TAP paired") }
        var classes: [JSONValue] = [.string(connected ? "connected" : "disconnected"), .string("layer-\(layer)")]
        if !locked.isEmpty { classes.append(.string("locked")) }
        if !latched.isEmpty { classes.append(.string("latched")) }
        if let device, status.batteryIsLow(device) { classes.append(.string("battery-low")) }
        var out: [(String, JSONValue)] = [("text", .string(text)), ("tooltip", .string(tooltip.joined(separator: "\n"))),
                                          ("class", .array(classes))]
        if let b = device?.battery { out.append(("percentage", .int(b))) }
        return out
    }
}
