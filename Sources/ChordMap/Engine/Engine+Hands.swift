/// Two devices as one keyboard: which device is which hand, the state both hands share, and
/// what a device's disconnect ends. The tap path itself is in `TapPath.swift`.
extension Engine {
    /// The state key both hands of a pair share (not a Bluetooth address, so never a device's).
    public static let pairID: DeviceID = "(pair)"

    /// Makes `device` one hand of the pair (nil: a device of its own again), overriding the
    /// keymap's `[hands]`. Call on connect, before its taps; its own state is dropped.
    public mutating func setRole(_ hand: Hand?, for device: DeviceID) {
        presentHands[device] = hand
        guard roles[device] != hand else { return }
        roles[device] = hand
        devices[device] = nil
        // The pair dissolved: its shared layers, locks and timers go with it.
        if roles.isEmpty && defaultKeymap.hands.isEmpty { devices[Self.pairID] = nil }
    }

    /// The hand `device` is, from ``setRole(_:for:)`` or the default keymap's `[hands]`.
    /// Asked for every event: without a pair it costs two emptiness checks.
    public func role(of device: DeviceID) -> Hand? {
        if roles.isEmpty && defaultKeymap.hands.isEmpty { return nil }
        return roles[device] ?? defaultKeymap.hands.role(address: device)
    }

    /// Where a device's layers, modifiers and pending taps live: its own, or the pair's.
    func stateID(of device: DeviceID) -> DeviceID { role(of: device) == nil ? device : Self.pairID }

    /// A device went away: releases what its state holds (both hands' for a pair) and forgets
    /// that state, pending and waiting taps untyped; other devices keep theirs. Always returns a
    /// frame with what the others still hold.
    public mutating func disconnect(_ device: DeviceID) -> [Output] {
        let id = stateID(of: device)
        presentHands[device] = nil
        let state = devices.removeValue(forKey: id)
        var out: [Output] = [.frame(Frame(pressed: baseline))]
        if let state, state.effectiveLayer != 0 { out.append(.layerChanged(device: device, layer: keymap(for: id).layers[0].name)) }
        return out
    }
}
