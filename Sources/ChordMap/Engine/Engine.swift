/// The mapping engine: a pure function of (state, event, time).
///
/// The daemon feeds every decoded event to ``step(_:at:)`` with the current monotonic time, writes
/// the returned ``Output``s, and calls ``timeout(at:)`` once ``StepResult/nextDeadline`` passes. The
/// engine never reads a clock, sleeps or does I/O, so tests drive it on virtual time.
///
/// ```swift
/// var engine = Engine(keymap: KeymapLoader.builtinDefault, characters: layout)   // layout: a CharacterMap
/// let r = engine.step(.tap(ChordTap(device: "tap0", chord: Chord(spelling: "x....")!)), at: now)
/// // r.outputs: frames; r.nextDeadline: non-nil because "a" has a double-tap binding ("v")
/// ```
///
/// Latency contract: a chord that can mean nothing longer is executed inside the same `step`.
/// A chord waits only if it can: continue as a double/triple tap or a longer sequence (until
/// the next chord shows it cannot, or its window ends), or be one side of a two-hand chord
/// (until the other hand taps or `combo-window-ms` ends). Nothing is ever typed and then
/// taken back.
///
/// Each device has its own layers, modifiers and pending multi-tap; the pressed set is shared.
/// The two devices of a pair (``HandRoles``, ``setRole(_:for:)``) are one keyboard: one state,
/// and two-hand chords (see `TapPath.swift` for the timing).
///
/// Characters: the engine holds keymaps resolved for its ``characters`` (one keyboard layout), so
/// a tap runs keystrokes only. Resolution happens when a keymap or the layout is set; each setter
/// returns the characters the layout cannot type, for the caller to report.
public struct Engine: Sendable {
    /// The keymaps as given, kept to resolve them again for another layout.
    var sourceKeymap: Keymap
    var sourceDeviceKeymaps: [DeviceID: Keymap] = [:]
    /// The same keymaps resolved for ``characters``: what taps run.
    var defaultKeymap: Keymap
    var deviceKeymaps: [DeviceID: Keymap] = [:]
    /// Engine state by ``stateID(of:)``: a device's address, or ``pairID`` for both hands of a pair.
    var devices: [DeviceID: DeviceState] = [:]
    /// Roles the daemon assigned (``setRole(_:for:)``); the keymap's `[hands]` apply otherwise.
    var roles: [DeviceID: Hand] = [:]
    /// Devices of a pair known to be there (given a role, or seen tapping) and not disconnected:
    /// a tap waits for the other hand only if that hand is here.
    var presentHands: [DeviceID: Hand] = [:]
    /// The layout characters are typed for.
    public private(set) var characters: CharacterMap
    /// The time of the event or timeout being handled, for what schedules a deadline while it runs
    /// (macros, layers that return by themselves). Set from the caller's time; never read from a clock.
    var currentTime: EngineTime = .zero

    public init(keymap: Keymap, characters: CharacterMap) {
        self.characters = characters
        self.sourceKeymap = keymap
        self.defaultKeymap = keymap.resolvingCharacters(with: characters).keymap
    }

    /// The default keymap as given (before characters were resolved).
    public var baseKeymap: Keymap { sourceKeymap }

    /// The characters the default and per-device keymaps use that ``characters`` cannot type.
    public var untypeable: [UntypeableCharacter] {
        var seen: Set<Character> = []
        return ([sourceKeymap] + sourceDeviceKeymaps.keys.sorted().map { sourceDeviceKeymaps[$0]! })
            .flatMap { $0.resolvingCharacters(with: characters).untypeable }
            .filter { seen.insert($0.character).inserted }
    }

    /// Types characters for another layout from now on. Same idle rule as ``replaceKeymap(_:)``;
    /// returns what the new layout cannot type.
    @discardableResult
    public mutating func setCharacters(_ map: CharacterMap) -> [UntypeableCharacter] {
        characters = map
        var missing: [UntypeableCharacter]
        (defaultKeymap, missing) = sourceKeymap.resolvingCharacters(with: map)
        for (id, source) in sourceDeviceKeymaps {
            let resolved = source.resolvingCharacters(with: map)
            deviceKeymaps[id] = resolved.keymap
            missing += resolved.untypeable
        }
        var seen: Set<Character> = []
        return missing.filter { seen.insert($0.character).inserted }
    }

    /// The keymap a device uses: its own if one was set, else the default.
    public func keymap(for device: DeviceID) -> Keymap {
        deviceKeymaps.isEmpty ? defaultKeymap : deviceKeymaps[device] ?? defaultKeymap   // skip hashing in the common case
    }

    /// Replaces the default keymap (reload, per-application switch). Call when ``isIdle``; a toggled
    /// layer survives if the new keymap has a layer of the same name, else the device returns to base.
    /// Returns the characters of `keymap` that ``characters`` cannot type.
    @discardableResult
    public mutating func replaceKeymap(_ keymap: Keymap) -> [UntypeableCharacter] {
        let old = defaultKeymap
        sourceKeymap = keymap
        let missing: [UntypeableCharacter]
        (defaultKeymap, missing) = keymap.resolvingCharacters(with: characters)
        for id in devices.keys where deviceKeymaps[id] == nil { remapLayers(of: id, from: old, to: defaultKeymap) }
        return missing
    }

    /// Gives one device its own keymap (nil: back to the default). Same idle rule and result as
    /// ``replaceKeymap(_:)``.
    @discardableResult
    public mutating func setKeymap(_ keymap: Keymap?, for device: DeviceID) -> [UntypeableCharacter] {
        let old = self.keymap(for: device)
        sourceDeviceKeymaps[device] = keymap
        let resolved = keymap.map { $0.resolvingCharacters(with: characters) }
        deviceKeymaps[device] = resolved?.keymap
        remapLayers(of: device, from: old, to: self.keymap(for: device))
        return resolved?.untypeable ?? []
    }

    /// No pending multi-tap, sequence or two-hand chord, no button held down and no macro
    /// running: a safe point to swap keymaps.
    public var isIdle: Bool {
        // A running macro too: its steps were resolved for the current keymap and layout, and an
        // application switch it causes itself (alt+tab) must not change them halfway.
        devices.values.allSatisfy { $0.pending == nil && $0.waiting == nil && $0.dragHeld.isEmpty && $0.handHeld.isEmpty && $0.macro == nil }
    }

    /// The active layer of a device (the one-shot layer if armed), for the monitor.
    public func activeLayer(of device: DeviceID) -> String {
        let id = stateID(of: device)
        let state = devices[id] ?? DeviceState()
        return keymap(for: id).layers[state.effectiveLayer].name
    }

    /// What a device's state looks like now, for the monitor / control interface. Both hands of
    /// a pair report the pair's state.
    public func status(of device: DeviceID) -> DeviceStatus {
        let id = stateID(of: device)
        let state = devices[id] ?? DeviceState()
        let first = state.pending?.keys.first
        return DeviceStatus(layer: keymap(for: id).layers[state.effectiveLayer].name,
                            oneShotModifiers: state.oneShotModifiers, lockedModifiers: state.lockedModifiers,
                            pendingChord: first.flatMap(\.oneHandChord) ?? state.waiting?.chord,
                            pendingCount: state.pending?.keys.count ?? (state.waiting == nil ? 0 : 1),
                            scrollMode: state.pointer.scrollMode, held: state.dragHeld.union(state.handHeld))
    }

    /// The earliest pending multi-tap, sequence, two-hand, macro or layer-return deadline over all
    /// devices. Asked after every event (mouse packets too), so it allocates nothing.
    public var nextDeadline: EngineTime? {
        var earliest: EngineTime?
        for state in devices.values {
            if let d = state.deadline, earliest.map({ d < $0 }) ?? true { earliest = d }
            // Macros and auto-return (EngineTimers.swift).
            if let t = state.timerDeadline, earliest.map({ t < $0 }) ?? true { earliest = t }
        }
        return earliest
    }

    /// Feeds one event. Pending multi-taps whose window already ended are resolved first, so a late
    /// ``timeout(at:)`` never reorders output.
    public mutating func step(_ event: InputEvent, at now: EngineTime) -> StepResult {
        var out: [Output] = []
        out.reserveCapacity(4)      // a tap's press and release frames and a layer change: one allocation
        currentTime = now
        expire(at: now, into: &out)
        if case .mouse(let m) = event {
            // Fast path for the most frequent event (~100 packets/s): update the pointer in place.
            guard m.isRealMovement else { return StepResult(outputs: out, nextDeadline: nextDeadline) }
            let id = stateID(of: m.device)
            let settings = deviceKeymaps.isEmpty ? defaultKeymap.mouse : (deviceKeymaps[id] ?? defaultKeymap).mouse
            let held = baseline
            if let frame = devices[id, default: DeviceState()].pointer.frame(vx: m.vx, vy: m.vy, settings: settings, baseline: held) {
                out.append(.frame(frame))
            }
            return StepResult(outputs: out, nextDeadline: nextDeadline)
        }
        let hand = role(of: event.device)
        let id = hand == nil ? event.device : Self.pairID
        let map = keymap(for: id)
        var state = devices[id] ?? DeviceState()
        state.target = event.device
        let layerBefore = state.effectiveLayer
        switch event {
        case .tap(let tap):
            handleTap(tap, hand: hand, state: &state, id: id, keymap: map, now: now, into: &out)
        case .mouse:
            break   // handled above
        case .airGesture(_, let code):
            if let action = map.gestures[code] {
                resolveWaiting(&state, id: id, keymap: map, into: &out)
                execute(action, state: &state, id: id, keymap: map, into: &out)
            }
        case .airGestureState(_, let s):
            state.airGestureState = s
        case .handState(_, let s):
            handleHandState(s, state: &state, id: id, keymap: map, into: &out)
        }
        finish(id, state: state, layerBefore: layerBefore, keymap: map, into: &out)
        return StepResult(outputs: out, nextDeadline: nextDeadline)
    }

    /// Runs everything due at or before `now`: waits that ended (multi-taps, sequences, the
    /// other hand), macro steps and layer returns, in deadline order.
    public mutating func timeout(at now: EngineTime) -> StepResult {
        var out: [Output] = []
        currentTime = now
        expire(at: now, into: &out)
        return StepResult(outputs: out, nextDeadline: nextDeadline)
    }

    /// Releases every key and button and forgets all state: pending taps are dropped (not typed),
    /// one-shots, locks, drag lock and scroll mode cleared, every device back on `base`.
    /// Always returns a frame with an empty pressed set, so nothing can stay down.
    public mutating func releaseAll() -> [Output] {
        var out: [Output] = [.frame(Frame())]
        for id in devices.keys.sorted() where devices[id]!.effectiveLayer != 0 {
            out.append(.layerChanged(device: devices[id]!.target ?? id, layer: keymap(for: id).layers[0].name))
        }
        devices = [:]
        return out
    }

    // MARK: - Internals

    /// Buttons held (drag lock, hand states) on every device: present in every frame until
    /// released. Only where no device's state is being worked on (mouse packets, release-all);
    /// inside a step, ``held(_:_:)`` with the working copy.
    var baseline: KeySet {
        var held: KeySet = []
        for state in devices.values where !(state.dragHeld.isEmpty && state.handHeld.isEmpty) {
            held.formUnion(state.dragHeld)
            held.formUnion(state.handHeld)
        }
        return held
    }

    /// ``baseline`` while device `id`'s state is the working copy `state`.
    ///
    /// A step works on one device's copy and stores it once, in `finish`; `devices[id]` is stale
    /// until then. Every frame built inside a step takes its held buttons from here, so no
    /// write-back is needed (or can be forgotten) before building one.
    func held(_ id: DeviceID, _ state: DeviceState) -> KeySet {
        var held = state.dragHeld.union(state.handHeld)
        for (other, s) in devices where other != id && !(s.dragHeld.isEmpty && s.handHeld.isEmpty) {
            held.formUnion(s.dragHeld)
            held.formUnion(s.handHeld)
        }
        return held
    }

    /// Runs everything due at or before `now` in deadline order, whatever its kind (a tap's
    /// window, the wait for the other hand, a macro step, a layer's return), as a timer would
    /// have fired them; ties by device name, a tap's deadline before a timer's. What one of
    /// them leaves due (a resolved wait's pending chord) runs in the same loop.
    private mutating func expire(at now: EngineTime, into out: inout [Output]) {
        let saved = currentTime
        defer { currentTime = saved }
        while let due = earliestDue(at: now) {
            currentTime = due.deadline
            var state = devices[due.id]!
            let map = keymap(for: due.id)
            let before = state.effectiveLayer
            if due.isTimer {
                runTimer(&state, id: due.id, at: due.deadline, keymap: map, into: &out)   // EngineTimers.swift
            } else {
                expireOne(&state, id: due.id, keymap: map, into: &out)
            }
            finish(due.id, state: state, layerBefore: before, keymap: map, into: &out)
        }
    }

    /// The earliest deadline at or before `now`. Called for every event (mouse packets too),
    /// so it allocates nothing.
    private func earliestDue(at now: EngineTime) -> (deadline: EngineTime, id: DeviceID, isTimer: Bool)? {
        var best: (deadline: EngineTime, id: DeviceID, isTimer: Bool)?
        for (id, state) in devices {
            if let d = state.deadline, d <= now, best.map({ (d, id) < ($0.deadline, $0.id) }) ?? true { best = (d, id, false) }
            if let d = state.timerDeadline, d <= now, best.map({ (d, id) < ($0.deadline, $0.id) }) ?? true { best = (d, id, true) }
        }
        return best
    }

    /// TapXR spatial states: the BLE layer already applies the vendor's majority-of-three filter
    /// and reports only changes, so every event here is a new state. Entering a state bound to a
    /// key or button holds it until the state ends (a quick pinch is a click, a long one a drag,
    /// as in the vendor's interpreter); any other action runs once.
    private mutating func handleHandState(_ voted: Int, state: inout DeviceState, id: DeviceID, keymap: Keymap,
                                          into out: inout [Output]) {
        guard voted != state.handState else { return }
        state.handState = voted
        if !state.handHeld.isEmpty {
            state.handHeld = []
            out.append(.frame(Frame(pressed: held(id, state))))
        }
        guard let action = keymap.gestures[voted] else { return }
        resolveWaiting(&state, id: id, keymap: keymap, into: &out)
        if case .key(let key, let modifiers) = action {
            state.handHeld = KeySet(modifiers).union([key])
            out.append(.frame(Frame(pressed: held(id, state))))
        } else {
            execute(action, state: &state, id: id, keymap: keymap, into: &out)
        }
    }

    /// Stores a step's working state. Layer and lock changes are announced here, in one place,
    /// whatever caused them (EngineLayers.swift: `.layerChanged`, on-enter/on-leave, pulses).
    mutating func finish(_ id: DeviceID, state: DeviceState, layerBefore: Int, keymap: Keymap, into out: inout [Output]) {
        var state = state
        settle(id, state: &state, layerBefore: layerBefore, keymap: keymap, into: &out)
        devices[id] = state
    }

    private mutating func remapLayers(of id: DeviceID, from old: Keymap, to new: Keymap) {
        guard var state = devices[id] else { return }
        state.layer = new.layerIndex(named: old.layers[state.layer].name) ?? 0
        state.oneShotLayer = state.oneShotLayer.flatMap { new.layerIndex(named: old.layers[$0].name) }
        state.layerMemo.toggled = state.layer   // the same layer at a new index, or base if it is gone: no pulse (EngineLayers.swift)
        devices[id] = state
    }
}

/// A snapshot of one device's engine state (see ``Engine/status(of:)``).
public struct DeviceStatus: Equatable, Sendable {
    /// The layer the next chord is looked up in.
    public var layer: String
    public var oneShotModifiers: [KeyCode]
    public var lockedModifiers: [KeyCode]
    /// A chord waiting for more taps, and how many it has had.
    public var pendingChord: Chord?
    public var pendingCount: Int
    public var scrollMode: Bool
    /// Buttons held by drag lock or a hand state.
    public var held: KeySet
}


/// Per-device engine state.
struct DeviceState: Sendable {
    /// The toggled (locked) layer; 0 = base.
    var layer = 0
    /// A layer armed for the next chord only.
    var oneShotLayer: Int?
    var oneShotModifiers: [KeyCode] = []
    var lockedModifiers: [KeyCode] = []
    /// Chords that may continue as a multi-tap or a sequence.
    var pending: Pending?
    /// A tap of one hand that may become a two-hand chord.
    var waiting: WaitingTap?
    /// The device commands (haptics, modes) go to: the one that tapped last.
    var target: DeviceID?
    /// Buttons held by drag lock.
    var dragHeld: KeySet = []
    var pointer = PointerState()
    var airGestureState = 0
    /// The TapXR hand state in force, as TapBLE's filter reported it (100 = open hand, at rest).
    var handState = 100
    /// Keys held because the hand is in a state bound to a key or button.
    var handHeld: KeySet = []
    /// The macro steps still to run (EngineMacros.swift).
    var macro: MacroRun?
    /// What the last step announced and the auto-return counters (EngineLayers.swift).
    var layerMemo = LayerMemo()

    var effectiveLayer: Int { oneShotLayer ?? layer }

    /// When this state must be looked at again: the earlier of its waits.
    var deadline: EngineTime? {
        switch (pending?.deadline, waiting?.deadline) {
        case (let p?, let w?): min(p, w)
        case (let p, let w): p ?? w
        }
    }
}

extension Keymap {
    var windowNs: UInt64 { UInt64(options.multiTapWindowMs) * 1_000_000 }
    var comboWindowNs: UInt64 { UInt64(options.comboWindowMs) * 1_000_000 }
    var sequenceWindowNs: UInt64 { UInt64(options.sequenceWindowMs) * 1_000_000 }

    /// The binding for a played chord in a layer, falling through to `base` if the layer allows it.
    func binding(for played: ChordKey, layer: Int) -> Binding? {
        if let b = layers[layer].binding(for: played) { return b }
        return layer != 0 && layers[layer].fallsThrough ? layers[0].binding(for: played) : nil
    }
}
