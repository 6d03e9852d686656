import ChordMap

/// Filling a ``ControlStatus`` from the daemon's parts, so the daemon's `controlStatus()` only
/// adds what only it knows (version, devices' BLE facts, focus sources).
extension ControlStatus {
    /// Sets the keymap, override, focus and keymap-error fields from `selector`.
    public mutating func fill(from selector: KeymapSelector) {
        keymap = selector.active.keymap.name
        keymapFile = selector.active.file ?? ""
        keymapOverride = selector.overridePath ?? ""
        focusApp = selector.focus.appID
        focusTitle = selector.focus.title
        focusSource = selector.focus.source
        keymapErrors = selector.errorTexts
        keymaps = selector.catalog.keymaps.mapValues(\.keymap.name)
    }
}

extension ControlStatus.Device {
    /// Sets the layer, modifiers and keymap fields from the engine's snapshot of this device
    /// (``ChordMap/Engine/status(of:)``) and the keymap it runs (``KeymapPlan/keymap(for:)``).
    public mutating func fill(engine status: DeviceStatus, keymap loaded: LoadedKeymap) {
        layer = status.layer
        oneShotModifiers = status.oneShotModifiers.map(\.name)
        lockedModifiers = status.lockedModifiers.map(\.name)
        keymap = loaded.keymap.name
        keymapFile = loaded.file ?? ""
    }
}
