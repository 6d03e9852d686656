/// What the tray knows of the daemon, and what it shows for it: pure values, so the texts and
/// the icon/status choice are tested without a bus.
///
/// ``Tray`` keeps one, updates it from the daemon's `Status()` replies and signals, and
/// publishes its ``presentation`` on the StatusNotifierItem and its menu (``TrayMenu``).
public struct TrayState: Equatable, Sendable {
    /// Whether the daemon owns `org.tapuinput.Daemon` now.
    public var daemonRunning = false
    /// The last `Status()` reply, with signals applied since (a layer change shows at once).
    public var status = ControlStatus()
    /// The diagnostics of the last `KeymapError` signal or failed `Reload`; nil once a status
    /// reply reports no broken file.
    public var keymapError: String?
    /// Why the last menu action failed (a `SetKeymap` refused, the cheat sheet not written);
    /// shown in the tooltip until the next action.
    public var actionError: String?

    public init() {}

    /// Connected devices (ready: inputs flow).
    public var connectedDevices: [ControlStatus.Device] { status.devices.filter(\.connected) }

    /// The broken-keymap text shown, if any: the signal's or the status's.
    public var currentKeymapError: String? { keymapError ?? status.keymapErrors.first }

    public var presentation: TrayPresentation {
        var p = TrayPresentation()
        guard daemonRunning else {
            p.title = "TapUinput (not running)"
            p.toolTipText = ControlInterface.notRunningMessage
            return p
        }
        p.title = "TapUinput: \(status.keymap)"
        let connected = connectedDevices
        if currentKeymapError != nil {
            p.status = .needsAttention
        } else if !connected.isEmpty {
            p.status = .active
        }
        // The daemon's threshold (`run --battery-low`), as its notification uses.
        if connected.contains(where: status.batteryIsLow) { p.iconName = "battery-caution" }
        p.toolTipText = toolTipLines.joined(separator: "\n")
        return p
    }

    /// The tooltip body: keymap, one line per device, problems last.
    private var toolTipLines: [String] {
        var lines = ["keymap: \(status.keymap)" + (status.keymapOverride.isEmpty ? "" : " (chosen)")]
        if status.devices.isEmpty { lines.append("no TAP connected") }
        for d in status.devices { lines.append(Self.deviceLine(d)) }
        if let error = currentKeymapError {
            let first = error.split(separator: "\n").first.map(String.init) ?? error
            lines.append("keymap error: \(first)")
        }
        if let actionError { lines.append(actionError) }
        return lines
    }

    /// `Tap_1: battery 87%, layer numbers, locked shift` or `Tap_1: not connected`.
    static func deviceLine(_ d: ControlStatus.Device) -> String {
        let name = d.displayName
        guard d.connected else { return "\(name): not connected" }
        var parts = d.role.isEmpty ? [] : ["\(d.role) hand"]
        if let b = d.battery { parts.append("battery \(b)%") }
        parts.append("layer \(d.layer.isEmpty ? "base" : d.layer)")
        if !d.lockedModifiers.isEmpty {
            parts.append("locked " + ControlText.modifierNames(d.lockedModifiers).joined(separator: "+"))
        }
        if !d.oneShotModifiers.isEmpty {
            parts.append("one-shot " + ControlText.modifierNames(d.oneShotModifiers).joined(separator: "+"))
        }
        return "\(name): " + parts.joined(separator: ", ")
    }
}

/// The StatusNotifierItem properties that change with the state.
public struct TrayPresentation: Equatable, Sendable {
    /// `Status`: hosts may hide a Passive item, show an Active one, and draw attention to
    /// NeedsAttention (then with ``attentionIconName``).
    public enum ItemStatus: String, Sendable { case passive = "Passive", active = "Active", needsAttention = "NeedsAttention" }

    /// Passive: no daemon or no TAP connected; Active: a TAP is connected; NeedsAttention: a
    /// keymap file is broken.
    public var status = ItemStatus.passive
    /// A freedesktop icon-theme name: a keyboard, or a battery warning when a TAP runs low.
    public var iconName = "input-keyboard"
    public var attentionIconName = "dialog-warning"
    public var title = "TapUinput"
    /// The tooltip's title stays "TapUinput"; this is its body, one fact a line.
    public var toolTipText = ""

    public init() {}
}
