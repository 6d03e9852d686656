/// Executing actions: turning a resolved ``Action`` into frames and device commands.
extension Engine {
    mutating func execute(_ action: Action, state: inout DeviceState, id: DeviceID, keymap: Keymap, into out: inout [Output]) {
        switch action {
        case .key(let key, let modifiers):
            let mods = takeModifiers(modifiers, state: &state)
            if state.dragHeld.contains(key) {
                // Clicking a drag-locked button drops what it drags: one release, no extra click.
                state.dragHeld.remove(key)
                out.append(.frame(Frame(pressed: held(id, state))))
                return
            }
            tap([key], modifiers: mods, state: state, id: id, into: &out)
        case .typed(let strokes):
            for stroke in strokes {
                tap([stroke.key], modifiers: stroke.modifiers, state: state, id: id, into: &out)
            }
        case .character, .text, .usKey:
            break   // the engine holds keymaps resolved into .key and .typed (Keymap.resolvingCharacters)
        case .sequence(let actions):
            for a in actions { execute(a, state: &state, id: id, keymap: keymap, into: &out) }
        case .oneShotModifiers(let mods):
            if Set(mods).isSubset(of: state.lockedModifiers) {
                state.lockedModifiers.removeAll { mods.contains($0) }
            } else if Set(mods).isSubset(of: state.oneShotModifiers) {
                state.oneShotModifiers.removeAll { mods.contains($0) }
            } else {
                for m in mods where !state.oneShotModifiers.contains(m) { state.oneShotModifiers.append(m) }
            }
        case .lockModifiers(let mods):
            state.oneShotModifiers.removeAll { mods.contains($0) }
            if Set(mods).isSubset(of: state.lockedModifiers) {
                state.lockedModifiers.removeAll { mods.contains($0) }
            } else {
                for m in mods where !state.lockedModifiers.contains(m) { state.lockedModifiers.append(m) }
            }
        case .oneShotLayer(let name):
            state.oneShotLayer = keymap.layerIndex(named: name)
        case .toggleLayer(let name):
            let index = keymap.layerIndex(named: name) ?? 0
            state.layer = state.layer == index ? 0 : index
            state.oneShotLayer = nil
        case .clear:
            let hadDrag = !state.dragHeld.isEmpty
            let (pending, waiting, target, hand, memo) = (state.pending, state.waiting, state.target, (state.handState, state.handHeld), state.layerMemo)
            state = DeviceState()   // also stops a running macro
            (state.pending, state.waiting, state.target) = (pending, waiting, target)
            state.layerMemo = memo   // so finish sees what clear released, and pulses for it
            (state.handState, state.handHeld) = hand
            if hadDrag { out.append(.frame(Frame(pressed: held(id, state)))) }
        case .doubleClick(let button):
            let mods = takeModifiers([], state: &state)
            state.dragHeld.remove(button)
            tap([button], modifiers: mods, state: state, id: id, into: &out, times: 2)
        case .dragLock(let button):
            if state.dragHeld.contains(button) { state.dragHeld.remove(button) } else { state.dragHeld.insert(button) }
            out.append(.frame(Frame(pressed: held(id, state))))
        case .wheel(let vertical, let horizontal):
            let mods = takeModifiers([], state: &state)
            let down = held(id, state)
            out.append(.frame(Frame(pressed: down.union(mods), wheel: vertical, hwheel: horizontal)))
            if !mods.isEmpty { out.append(.frame(Frame(pressed: down))) }
        case .toggleScroll:
            state.pointer.scrollMode.toggle()
            state.pointer.resetRemainders()
        case .vibrate(let durations):
            out.append(.vibrate(device: state.target ?? id, durationsMs: durations))
        case .setInputMode(let mode):
            out.append(.setInputMode(device: state.target ?? id, mode: mode))
        case .setXRState(let xr):
            out.append(.setXRState(device: state.target ?? id, state: xr))
        case .run(let argv):
            // The loader rejects `run` unless the keymap allows commands; checked again here so a
            // hand-built Keymap cannot bypass it.
            if keymap.options.allowCommands { out.append(.run(device: state.target ?? id, argv: argv)) }
        case .macro(let steps):
            startMacro(steps, state: &state, id: id, keymap: keymap, into: &out)
        case .none, .alias:
            break   // the loader resolves aliases; one left in a hand-built keymap does nothing
        }
    }

    /// The modifiers to hold around the next key: its own, then armed one-shots (consumed), then locks.
    private func takeModifiers(_ own: [KeyCode], state: inout DeviceState) -> [KeyCode] {
        var mods = own
        for m in state.oneShotModifiers + state.lockedModifiers where !mods.contains(m) { mods.append(m) }
        state.oneShotModifiers = []
        return mods
    }

    /// Press `keys` with `modifiers` in one frame, then release back to the held baseline;
    /// `times` repeats the press (double click) with the modifiers kept down in between.
    private func tap(_ keys: KeySet, modifiers: [KeyCode], state: DeviceState, id: DeviceID,
                     into out: inout [Output], times: Int = 1) {
        let held = held(id, state)
        let withMods = held.union(modifiers)
        if !held.isDisjoint(with: keys) { out.append(.frame(Frame(pressed: held.subtracting(keys)))) }
        for i in 0..<times {
            out.append(.frame(Frame(pressed: withMods.union(keys))))
            out.append(.frame(Frame(pressed: i == times - 1 ? held : withMods)))
        }
    }
}
