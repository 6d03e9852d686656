/// The engine's own timers besides multi-tap windows: macro steps and layers returning after
/// `return-after-ms`. Both are deadlines in device state, reported through
/// ``Engine/nextDeadline`` and run by ``Engine/timeout(at:)`` (and by any later event first).
extension Engine {
    /// The earliest macro or layer-return deadline over all devices.
    var timerDeadline: EngineTime? { earliestTimer()?.deadline }

    /// Runs every timer due at or before `now`, earliest first (ties by device name), each at its
    /// own deadline: what it schedules counts from then.
    mutating func runTimers(at now: EngineTime, into out: inout [Output]) {
        let saved = currentTime
        defer { currentTime = saved }
        while let (deadline, id) = earliestTimer(), deadline <= now {
            currentTime = deadline
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
