/// The engine's own timers besides multi-tap windows: macro steps and layers returning after
/// `return-after-ms`. Both are deadlines in device state, reported through
/// ``Engine/nextDeadline`` and run by ``Engine/timeout(at:)`` (and by any later event first).
extension Engine {
    /// Runs device `id`'s timer that is due at `deadline` (``Engine``'s `expire` picks it, in
    /// deadline order with the taps' windows); what it schedules counts from then.
    mutating func runTimer(_ state: inout DeviceState, id: DeviceID, at deadline: EngineTime, keymap: Keymap,
                           into out: inout [Output]) {
        if let run = state.macro, run.deadline <= deadline {
            runMacro(state: &state, upTo: deadline, id: id, keymap: keymap, into: &out)
        } else {
            state.layerMemo.returnDeadline = nil
            state.layer = 0     // return-after-ms ran out; the caller's finish announces it
        }
    }
}

extension DeviceState {
    /// The earlier of this device's macro and layer-return deadlines.
    var timerDeadline: EngineTime? {
        switch (macro?.deadline, layerMemo.returnDeadline) {
        case (let m?, let r?): min(m, r)
        case (let m, let r): m ?? r
        }
    }
}
