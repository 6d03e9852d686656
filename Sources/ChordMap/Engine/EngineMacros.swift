/// Running macros on the engine's virtual time.
///
/// A macro's steps up to its first delay run inside the call that triggered it; the rest wait
/// in the device's ``MacroRun``, whose deadline ``Engine/nextDeadline`` reports and
/// ``Engine/timeout(at:)`` honours. Each step is executed whole (a key's press and release in the
/// same call), so a chord tapped while a macro waits runs at once, between two steps, never inside
/// a key press. A macro triggered while another runs on the same device queues behind it (up to
/// ``MacroLimits/maxQueuedSteps`` steps; beyond that the new macro is dropped). `clear` and
/// ``Engine/releaseAll()`` drop what is left.
struct MacroRun: Sendable {
    /// The steps still to run; the first is due at `deadline`, each later one `delayMs` after
    /// the one before it.
    var steps: ArraySlice<MacroStep>
    var deadline: EngineTime
}

extension Engine {
    mutating func startMacro(_ steps: [MacroStep], state: inout DeviceState, id: DeviceID, keymap: Keymap,
                             into out: inout [Output]) {
        guard let first = steps.first else { return }
        if var run = state.macro {
            guard run.steps.count + steps.count <= MacroLimits.maxQueuedSteps else { return }
            run.steps.append(contentsOf: steps)
            state.macro = run
            return
        }
        state.macro = MacroRun(steps: steps[...], deadline: currentTime.adding(milliseconds: first.delayMs))
        runMacro(state: &state, upTo: currentTime, id: id, keymap: keymap, into: &out)
    }

    /// Runs every step due at or before `now`. The next deadline counts from the step's own
    /// deadline, not from when it ran, so a late timer does not stretch the macro.
    mutating func runMacro(state: inout DeviceState, upTo now: EngineTime, id: DeviceID, keymap: Keymap,
                           into out: inout [Output]) {
        while let run = state.macro, run.deadline <= now {
            var rest = run.steps
            let step = rest.removeFirst()
            state.macro = rest.first.map { MacroRun(steps: rest, deadline: run.deadline.adding(milliseconds: $0.delayMs)) }
            execute(step.action, state: &state, id: id, keymap: keymap, into: &out)
        }
    }
}
