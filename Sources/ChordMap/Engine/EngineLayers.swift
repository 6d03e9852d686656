// Layer and lock changes: announcing them (`.layerChanged`, `on-leave` / `on-enter`, default
// pulses) and layers that return to base by themselves (`return-after-chords`, `return-after-ms`).
//
// Every change is detected in one place, ``Engine/finish(_:state:layerBefore:keymap:into:)``,
// which compares the state it stores with what the step started from, so it does not matter
// which action (toggle, one-shot, clear, a macro step) or timer caused it.
// ``Engine/releaseAll()`` and ``Engine/disconnect(_:)`` are the exceptions: they forget the state, run no hooks, send no
// pulse, since the device may be gone.

/// What ``Engine/finish(_:state:layerBefore:keymap:into:)`` last saw of a device, and the
/// auto-return counters of its toggled layer. `clear` keeps it, so what clear releases still pulses.
struct LayerMemo: Sendable {
    /// The toggled layer the counters below belong to.
    var toggled = 0
    /// Chords tapped in that layer since it was toggled on.
    var chords = 0
    /// When that layer returns to base for `return-after-ms`; nil without the option or on base.
    var returnDeadline: EngineTime?
    /// The last chord counted used up `return-after-chords`: return once it has run.
    var returnAfterThis = false
    /// The locked modifiers last seen, to pulse when they change.
    var locks: [KeyCode] = []
}

extension Engine {
    /// Announces what changed in this step. Order: the old layer's `on-leave`, `.layerChanged`,
    /// the new layer's `on-enter`, then at most one default pulse (a layer pulse wins over a lock
    /// pulse in the same step). Layer hooks run on every change of the active (effective) layer,
    /// one-shot layers included; default layer pulses only when the toggled layer changes, and
    /// not for a layer whose own hook replaces them (its `on-enter` when entering it, its
    /// `on-leave` when returning from it to base).
    mutating func settle(_ id: DeviceID, state: inout DeviceState, layerBefore: Int, keymap: Keymap, into out: inout [Output]) {
        let layers = keymap.layers
        if state.layerMemo.returnAfterThis {
            // The chord that used up return-after-chords has run; unless it left the layer itself.
            state.layerMemo.returnAfterThis = false
            if state.layer == state.layerMemo.toggled { state.layer = 0 }
        }
        let layerAfter = state.effectiveLayer
        if layerAfter != layerBefore {
            // Hooks cannot switch layers (the loader refuses it), so this runs once, never loops.
            if layerBefore < layers.count, let leave = layers[layerBefore].onLeave {
                execute(leave, state: &state, id: id, keymap: keymap, into: &out)
            }
            out.append(.layerChanged(device: state.target ?? id, layer: layers[layerAfter].name))
            if let enter = layers[layerAfter].onEnter { execute(enter, state: &state, id: id, keymap: keymap, into: &out) }
        }
        var pulse: [Int]?
        if state.layer != state.layerMemo.toggled {
            let from = state.layerMemo.toggled
            state.layerMemo.toggled = state.layer
            state.layerMemo.chords = 0
            state.layerMemo.returnDeadline = state.layer == 0 ? nil
                : layers[state.layer].returnAfterMs.map { currentTime.adding(milliseconds: $0) }
            if keymap.feedback.layerPulses {
                if state.layer == 0 {
                    if from >= layers.count || layers[from].onLeave == nil { pulse = FeedbackPatterns.released }
                } else if layers[state.layer].onEnter == nil {
                    pulse = FeedbackPatterns.engaged
                }
            }
        }
        if state.lockedModifiers != state.layerMemo.locks {
            let engaged = state.lockedModifiers.contains { !state.layerMemo.locks.contains($0) }
            state.layerMemo.locks = state.lockedModifiers
            if keymap.feedback.lockPulses, pulse == nil { pulse = engaged ? FeedbackPatterns.engaged : FeedbackPatterns.released }
        }
        // To the device that tapped (for a pair, the hand that made the change).
        if let pulse { out.append(.vibrate(device: state.target ?? id, durationsMs: pulse)) }
    }

    /// Counts a played chord (a one-hand chord, or a two-hand chord once combined; each tap of a
    /// multi-tap) looked up in `layer`, for the toggled layer's `return-after-chords` /
    /// `return-after-ms`. Chords looked up in a one-shot layer armed on top do not count. Called
    /// before the chord runs; when it uses up the count the return is only marked, and
    /// ``settle(_:state:layerBefore:keymap:into:)`` makes it once the chord has run in the layer.
    mutating func countChord(state: inout DeviceState, layer: Int, keymap: Keymap) {
        guard layer != 0, layer == state.layer, state.layerMemo.toggled == layer else { return }
        let options = keymap.layers[layer]
        guard options.returnAfterChords != nil || options.returnAfterMs != nil else { return }
        state.layerMemo.chords += 1
        if let n = options.returnAfterChords, state.layerMemo.chords >= n { state.layerMemo.returnAfterThis = true }
        if let ms = options.returnAfterMs { state.layerMemo.returnDeadline = currentTime.adding(milliseconds: ms) }
    }

    /// The pulse a device should give when it connects, if the keymap it uses wants one. The
    /// daemon calls this when a device's connection is set up and sends what it returns.
    public func deviceConnected(_ id: DeviceID) -> [Output] {
        keymap(for: stateID(of: id)).feedback.connectPulse ? [.vibrate(device: id, durationsMs: FeedbackPatterns.connected)] : []
    }
}

extension EngineTime {
    /// This time plus `ms` milliseconds (negative counts as 0), saturating.
    func adding(milliseconds ms: Int) -> EngineTime { adding(nanoseconds: UInt64(max(0, ms)) * 1_000_000) }
}
