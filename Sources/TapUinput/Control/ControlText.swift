import ChordMap
import KeyboardLayout

/// Human-readable text for the control interface and its command-line clients: actions in
/// keymap syntax (the daemon's `Tap` signal), `tap-uinput status` and `tap-uinput monitor`.
public enum ControlText {
    // MARK: Actions

    /// An action written roughly as a keymap would write it: `a`, `ctrl+t`, `layer(nav)`,
    /// `text(Hi)`. For display only; not guaranteed to parse back.
    public static func describe(_ action: Action) -> String {
        switch action {
        case .key(let key, let modifiers):
            return (modifiers.map(modifierName) + [keyName(key)]).joined(separator: "+")
        case .character(let c, let modifiers):
            return (modifiers.map(modifierName) + [String(c)]).joined(separator: "+")
        case .usKey(let c, let modifiers):
            return "us(" + (modifiers.map(modifierName) + [String(c)]).joined(separator: "+") + ")"
        case .text(let text): return "text(\(text))"
        case .typed(let strokes):
            return "typed(" + strokes.map { s in (s.modifiers.map(modifierName) + [keyName(s.key)]).joined(separator: "+") }.joined(separator: " ") + ")"
        case .sequence(let actions): return "[" + actions.map(describe).joined(separator: ", ") + "]"
        case .oneShotModifiers(let m): return "oneshot(\(m.map(modifierName).joined(separator: "+")))"
        case .lockModifiers(let m): return "lock(\(m.map(modifierName).joined(separator: "+")))"
        case .oneShotLayer(let l): return "layer(\(l))"
        case .toggleLayer(let l): return "toggle(\(l))"
        case .clear: return "clear"
        case .doubleClick(let b): return b == .buttonLeft ? "double-click" : "double-click(\(keyName(b)))"
        case .dragLock(let b): return b == .buttonLeft ? "drag-lock" : "drag-lock(\(keyName(b)))"
        case .wheel(let v, let h):
            switch (v, h) {
            case (120, 0): return "wheel-up"
            case (-120, 0): return "wheel-down"
            case (0, 120): return "wheel-right"
            case (0, -120): return "wheel-left"
            case (_, 0): return "wheel(\(v / 120))"
            default: return "hwheel(\(h / 120))"
            }
        case .toggleScroll: return "toggle-scroll"
        case .vibrate(let d): return "vibrate(\(d.map(String.init).joined(separator: ",")))"
        case .setInputMode(let m): return "input-mode(\(m))"
        case .setXRState(let s): return "xr-state(\(s))"
        case .run(let argv): return "run(\(argv.joined(separator: " ")))"
        case .none: return "none"
        case .macro(let steps):
            return "macro(" + steps.map { ($0.delayMs > 0 ? "\($0.delayMs)ms, " : "") + describe($0.action) }.joined(separator: ", ") + ")"
        case .alias(let name): return "@" + name
        }
    }

    /// What `chord` is bound to in `layer` of `keymap`, looking in `base` when the layer
    /// falls through (the engine's lookup rule); nil when unbound. For the daemon's `Tap`
    /// signal: read the device's layer before stepping the engine, describe after.
    public static func binding(of chord: Chord, inLayer layer: String, of keymap: Keymap) -> Binding? {
        guard let index = keymap.layerIndex(named: layer) else { return keymap.layers[0][chord] }
        let l = keymap.layers[index]
        if let b = l[chord] { return b }
        return l.fallsThrough && index != 0 ? keymap.layers[0][chord] : nil
    }

    /// A binding for the monitor: `a`, or `a | double v | triple @` when it has multi-tap
    /// actions (the engine decides which one runs after the tap); `none` when unbound.
    public static func describe(binding: Binding?) -> String {
        guard let binding else { return "none" }
        var s = describe(binding.tap)
        if let d = binding.double { s += " | double \(describe(d))" }
        if let t = binding.triple { s += " | triple \(describe(t))" }
        return s
    }

    /// `KEY_A` -> `a`, `BTN_LEFT` -> `click`.
    static func keyName(_ key: KeyCode) -> String {
        switch key.name {
        case "BTN_LEFT": return "click"
        case "BTN_RIGHT": return "right-click"
        case "BTN_MIDDLE": return "middle-click"
        default:
            let n = key.name
            return (n.hasPrefix("KEY_") ? String(n.dropFirst(4)) : n).lowercased()
        }
    }

    /// `KEY_LEFTCTRL` -> `ctrl`, `KEY_RIGHTALT` -> `altgr`.
    static func modifierName(_ key: KeyCode) -> String {
        switch key {
        case .leftCtrl: "ctrl"
        case .leftShift: "shift"
        case .leftAlt: "alt"
        case .leftMeta: "super"
        case .rightCtrl: "rctrl"
        case .rightShift: "rshift"
        case .rightAlt: "altgr"
        case .rightMeta: "rmeta"
        default: keyName(key)
        }
    }

    /// Modifier names from key code names (`KEY_LEFTSHIFT` -> `shift`), for status output.
    public static func modifierNames(_ names: [String]) -> [String] {
        names.map { n in KeyCode(name: n).map(modifierName) ?? n.lowercased() }
    }

    // MARK: Status

    /// `tap-uinput status`, human-readable.
    public static func status(_ s: ControlStatus) -> String {
        var lines: [String] = []
        let version = s.version.isEmpty ? "" : " \(s.version)"
        lines.append("TapUinput daemon\(version)")
        let file = s.keymapFile.isEmpty ? "built-in" : s.keymapFile
        let mode = s.keymapOverride.isEmpty ? "selected by focus" : "set by SetKeymap"
        lines.append("keymap:  \(s.keymap) (\(file); \(mode))")
        let focus = s.focusApp.isEmpty ? "nothing" : s.focusTitle.isEmpty ? s.focusApp : "\(s.focusApp) \"\(s.focusTitle)\""
        let via = s.focusSource.isEmpty ? "" : " via \(s.focusSource)"
        lines.append("focus:   \(focus)\(via)")
        lines.append("sources: " + (s.focusSources.isEmpty ? "none" : s.focusSources.joined(separator: ", ")))
        if !s.layout.isEmpty {
            let layout = LayoutNames(spelling: s.layout).map { LayoutReport(.names($0), group: s.layoutGroup, origin: s.layoutOrigin).summary }
            lines.append("layout:  \(layout ?? s.layout)" + (s.layoutOrigin.isEmpty ? "" : " (from \(s.layoutOrigin))"))
        }
        if s.devices.isEmpty {
            lines.append("devices: none")
        } else {
            lines.append("devices:")
            for d in s.devices { lines += device(d, mainKeymap: s.keymapFile) }
        }
        if !s.keymapErrors.isEmpty {
            lines.append("keymap errors (these files run their last good version):")
            lines += s.keymapErrors.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
        }
        return lines.joined(separator: "\n")
    }

    private static func device(_ d: ControlStatus.Device, mainKeymap: String) -> [String] {
        var head = "  \(d.id)  \(d.name.isEmpty ? "(no name)" : d.name)  \(d.connected ? "connected" : "not connected")"
        if let b = d.battery { head += "  battery \(b)%" }
        var lines = [head]
        var details: [String] = []
        if let m = d.mode { details.append("mode \(m)") }
        if let f = d.firmwareVersion { details.append("firmware \(f)") }
        if let h = d.hardwareVersion { details.append("hardware \(h)") }
        if !details.isEmpty { lines.append("    " + details.joined(separator: ", ")) }
        var state = d.role.isEmpty ? [] : ["\(d.role) hand"]
        state.append("layer \(d.layer.isEmpty ? "base" : d.layer)")
        if !d.oneShotModifiers.isEmpty { state.append("one-shot " + modifierNames(d.oneShotModifiers).joined(separator: "+")) }
        if !d.lockedModifiers.isEmpty { state.append("locked " + modifierNames(d.lockedModifiers).joined(separator: "+")) }
        if !d.keymap.isEmpty, d.keymapFile != mainKeymap {
            state.append("keymap \(d.keymap) (\(d.keymapFile.isEmpty ? "built-in" : d.keymapFile))")
        }
        lines.append("    " + state.joined(separator: ", "))
        return lines
    }

    // MARK: Monitor

    /// One line of `tap-uinput monitor` per event. Taps show the finger diagram, thumb first
    /// (`x.x..`), what it did, and where: `x.x..  ctrl+t          firefox [web]  AA:BB:...`.
    public static func monitorLine(_ event: ControlEvent) -> String {
        switch event {
        case .tap(let device, let chord, let action, let app, let layer):
            let fingers = chord?.pattern ?? "?????"
            let shown = action.isEmpty ? "(nothing)" : action
            let padded = shown.count < 16 ? shown + String(repeating: " ", count: 16 - shown.count) : shown
            let where_ = app.isEmpty ? "-" : app
            return "\(fingers)  \(padded)  \(where_) [\(layer)]  \(device)"
        case .deviceConnected(let id, let name): return "* connected     \(id) \(name)"
        case .deviceDisconnected(let id, let reason): return "* disconnected  \(id): \(reason)"
        case .layerChanged(let device, let layer): return "* layer         \(layer) on \(device)"
        case .focusChanged(let app, let title):
            return "* focus         " + (app.isEmpty ? "nothing" : title.isEmpty ? app : "\(app) \"\(title)\"")
        case .keymapChanged(let name, let file): return "* keymap        \(name) (\(file.isEmpty ? "built-in" : file))"
        case .keymapError(let message): return "* keymap error\n" + message
        }
    }
}
