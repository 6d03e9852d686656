/// The engine's own timers besides multi-tap windows: macro steps and layers returning after
/// `return-after-ms`. Both are deadlines in device state, reported through
/// ``Engine/nextDeadline`` and run by ``Engine/timeout(at:)`` (and by any later event first).
extension Engine {
    /// The earliest macro or layer-return deadline over all devices.
    var timerDeadline: EngineTime? { earliestTimer()?.deadline }

    /// Runs device `id`'s timer that is due at `deadline` (``Engine``'s `expire` picks it, in
    /// deadline order with the taps' windows); what it schedules counts from then.
    mutating func runTimer(of id: DeviceID, at deadline: EngineTime, into out: inout [Output]) {
        var state = devices[id]!
        let map = keymap(for: id)
        let before = state.effectiveLayer
        if let run = state.macro, run.deadline <= deadline {
            runMacro(state: &state, upTo: deadline, id: id, keymap: map, into: &out)
        } else {
            state.layerMemo.returnDeadline = nil
            state.layer = 0     // return-after-ms ran out; finish announces it
        }
        finish(id, state: state, layerBefore: before, keymap: map, into: &out)
    }

    /// Called for every event (mouse packets too, through `nextDeadline` and `expire`), so it
    /// allocates nothing.
    private func earliestTimer() -> (deadline: EngineTime, id: DeviceID)? {
        var best: (deadline: EngineTime, id: DeviceID)?
        for (id, state) in devices {
            guard let d = state.timerDeadline else { continue }
            if best.map({ (d, id) < ($0.deadline, $0.id) }) ?? true { best = (d, id) }
        }
        return best
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
