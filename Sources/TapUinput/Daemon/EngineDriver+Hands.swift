import ChordMap

/// Devices coming and going, and the hand each one plays.
///
/// A device's role is the base keymap's `[hands]` (by address or Bluetooth name), else the one
/// `tap-uinput pair --role` assigned (``HandAssignments``), else none: a device of its own. It is
/// looked up on connect, after every keymap switch and when the assignments change; the latter
/// two at the engine's next idle point, so no chord is split between two roles.
extension EngineDriver {
    /// A device is ready: it gets its role before its first tap, then its connect pulse (unless
    /// its keymap's `[feedback]` turns it off: call this once the selector knows the device, so
    /// the device's own keymap decides).
    public func connect(device: DeviceID, name: String) {
        setRole(resolvedRole(of: device, name: name), for: device)
        for output in engine.deviceConnected(device) { perform(output) }
    }

    /// A device went away: releases what its state holds (for a hand, the pair's: the other
    /// hand's drag lock too, since the two are one keyboard) and drops its pending and waiting
    /// taps untyped. Other devices keep theirs.
    public func disconnect(device: DeviceID, reason: String) {
        logger.debug("release device", metadata: ["device": "\(device)", "reason": "\(reason)"])
        for output in engine.disconnect(device) { perform(output) }
        forget(device: device)
        rearm(engine.nextDeadline)
        applyPendingKeymapIfIdle()
    }

    /// Drops `device`'s role (looked up again on its next connect) without releasing anything:
    /// for devices gone after a ``releaseAll(reason:)`` that already released them all.
    public func forget(device: DeviceID) {
        engine.setRole(nil, for: device)
    }

    /// Makes `device` one hand of the pair (nil: a device of its own), now. When that changes
    /// its role while it holds something, what it holds is released first (the engine drops the
    /// state of a device whose role changes, and a dropped held button would stay down).
    public func setRole(_ hand: Hand?, for device: DeviceID) {
        let changes = engine.role(of: device) != hand
        if changes && !engine.isIdle {
            for output in engine.disconnect(device) { perform(output) }
            rearm(engine.nextDeadline)
        }
        // Always, even when the role stays: it also tells the engine the hand is present, so the
        // other hand's taps wait for it (a role from the keymap's [hands] by address is the
        // engine's already, but the engine cannot know the device is connected).
        engine.setRole(hand, for: device)
        if changes { logger.info("\(device): \(hand.map { "\($0) hand" } ?? "a device of its own")") }
    }

    /// The role `device` plays now; nil: a device of its own.
    public func role(of device: DeviceID) -> Hand? { engine.role(of: device) }

    /// The role `device` would get now, from the base keymap's `[hands]` and the assignments.
    public func resolvedRole(of device: DeviceID, name: String?) -> Hand? {
        handAssignments.role(address: device, name: name, keymap: engine.baseKeymap)
    }

    /// New `hands.conf` contents (daemon start, reload): roles follow at the next idle point.
    public func setHandAssignments(_ assignments: HandAssignments) {
        guard assignments != handAssignments else { return }
        handAssignments = assignments
        pendingRoles = true
        applyPendingKeymapIfIdle()
    }

    /// Looks every connected device's role up again.
    func refreshRoles() {
        for (device, name) in connectedDevices() { setRole(resolvedRole(of: device, name: name), for: device) }
    }
}
