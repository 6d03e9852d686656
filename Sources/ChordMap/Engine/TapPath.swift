/// The tap path: two-hand chords, multi-taps and sequences, one rule for all of them.
///
/// A tap goes through two stages:
/// 1. **The other hand.** A tap of one hand of a pair that is one side of a two-hand chord in the
///    active layer waits (``WaitingTap``) up to `combo-window-ms` for the other hand, if that
///    hand's device is there (given a role, or seen tapping, and not disconnected). The other
///    hand's tap inside the window makes the two-hand chord, if that pair means something;
///    anything else (the window ends, the same hand again, a pair that means nothing) plays the
///    waiting tap on its own, then the new one. A tap that cannot start a two-hand chord (and
///    every tap of a device outside a pair) skips this stage: no added latency.
/// 2. **What follows.** The played chord joins the ``Pending`` chords. While they can still
///    grow into something longer (a double or triple tap, a longer sequence) they wait, each
///    chord restarting the window; a chord that completes a binding with nothing longer possible
///    runs at once. When the chords can no longer continue (another chord, or the window ends),
///    the longest run that means something runs, then the next, and so on, so a count with no
///    action of its own types the single action that many times.
///
/// Nothing is typed and then taken back: a chord runs once it can mean nothing else.
extension Engine {
    /// A tap of `hand` (nil: a device outside any pair), looked up in `state` (the pair's).
    mutating func handleTap(_ tap: ChordTap, hand: Hand?, state: inout DeviceState, id: DeviceID, keymap: Keymap,
                            now: EngineTime, into out: inout [Output]) {
        guard let hand else {
            play(.anyHand(tap.chord), state: &state, id: id, keymap: keymap, at: now, into: &out)
            return
        }
        presentHands[tap.device] = hand
        if let waiting = state.waiting {
            state.waiting = nil
            if waiting.hand != hand {
                let sides = hand == .left ? (tap.chord, waiting.chord) : (waiting.chord, tap.chord)
                let both = HandChord(left: sides.0.rawValue, right: sides.1.rawValue)!
                if means(.hands(both), state, keymap) {
                    play(.hands(both), state: &state, id: id, keymap: keymap, at: now, into: &out)
                    return
                }
            }
            playAlone(waiting, state: &state, id: id, keymap: keymap, into: &out)
        }
        let pairs = PairLookup(keymap, layer: lookupLayer(state))
        if pairs.starts(tap.chord, on: hand),
           presentHands.values.contains(hand == .left ? .right : .left) {
            let deadline = now.adding(nanoseconds: keymap.comboWindowNs)
            state.waiting = WaitingTap(hand: hand, chord: tap.chord, at: now, deadline: deadline)
            // Tapped inside the pending chords' window, it may continue them (a double tap, a
            // sequence step): they wait until it is resolved.
            if var pending = state.pending, pending.deadline < deadline {
                pending.deadline = deadline
                state.pending = pending
            }
            return
        }
        play(played(tap.chord, hand, pairs), state: &state, id: id, keymap: keymap, at: now, into: &out)
    }

    /// True if a two-hand chord means something now: it continues the pending chords, or it is
    /// bound (or starts a sequence) on its own. A pair that only appears later in a sequence
    /// does not, so its two taps play on their own instead of being lost.
    private func means(_ key: ChordKey, _ state: DeviceState, _ keymap: Keymap) -> Bool {
        if let pending = state.pending {
            let s = keymap.status(of: pending.keys + [key], layer: pending.layer)
            if s.action != nil || s.canContinue { return true }
        }
        let s = keymap.status(of: key, layer: lookupLayer(state))
        return s.action != nil || s.canContinue
    }

    /// What a one-hand tap of a pair plays as: that hand's chord where the layer writes one for
    /// that hand, else the chord of whichever hand, so the two hands' taps of one binding count
    /// together (a double tap may use both hands) and a pair without such chords types exactly
    /// as one device.
    private func played(_ chord: Chord, _ hand: Hand, _ pairs: PairLookup) -> ChordKey {
        let h = HandChord(chord, on: hand)
        return pairs.isOneSided(h) ? .hands(h) : .anyHand(chord)
    }

    /// Plays a tap that waited for the other hand on its own, at the time it was tapped (the
    /// caller has taken it out of `state.waiting`).
    private mutating func playAlone(_ waiting: WaitingTap, state: inout DeviceState, id: DeviceID, keymap: Keymap,
                                    into out: inout [Output]) {
        let key = played(waiting.chord, waiting.hand, PairLookup(keymap, layer: lookupLayer(state)))
        play(key, state: &state, id: id, keymap: keymap, at: waiting.at, into: &out)
    }

    /// Runs whatever is waiting or pending now, as if its window had ended (before a gesture's
    /// action, so actions stay in the order they were made).
    mutating func resolveWaiting(_ state: inout DeviceState, id: DeviceID, keymap: Keymap, into out: inout [Output]) {
        if let waiting = state.waiting {
            state.waiting = nil
            playAlone(waiting, state: &state, id: id, keymap: keymap, into: &out)
        }
        resolvePending(&state, id: id, keymap: keymap, into: &out)
    }

    /// Resolves whichever of the state's waits ended first (the timer fired).
    mutating func expireOne(_ state: inout DeviceState, id: DeviceID, keymap: Keymap, into out: inout [Output]) {
        // A wait ends no later than the pending chords' window (see handleTap), and plays first.
        if let waiting = state.waiting, state.pending.map({ waiting.deadline <= $0.deadline }) ?? true {
            state.waiting = nil
            playAlone(waiting, state: &state, id: id, keymap: keymap, into: &out)
        } else {
            resolvePending(&state, id: id, keymap: keymap, into: &out)
        }
    }

    /// Stage 2: one played chord (a one-hand chord, or both hands' once combined) tapped at `now`.
    private mutating func play(_ key: ChordKey, state: inout DeviceState, id: DeviceID, keymap: Keymap,
                               at now: EngineTime, into out: inout [Output]) {
        countChord(state: &state, layer: lookupLayer(state), keymap: keymap)   // return-after-* (EngineLayers.swift)
        if var pending = state.pending {
            pending.keys.append(key)
            let s = keymap.status(of: pending.keys, layer: pending.layer)
            if s.canContinue {
                pending.deadline = now.adding(nanoseconds: s.window)
                state.pending = pending
                return
            }
            if let action = s.action {
                state.pending = nil
                execute(action, state: &state, id: id, keymap: keymap, into: &out)
                return
            }
            resolvePending(&state, id: id, keymap: keymap, into: &out)
        }
        let layer = state.effectiveLayer
        state.oneShotLayer = nil
        let s = keymap.status(of: key, layer: layer)
        if s.canContinue {
            state.pending = Pending(keys: [key], layer: layer, deadline: now.adding(nanoseconds: s.window))
        } else if let action = s.action {
            execute(action, state: &state, id: id, keymap: keymap, into: &out)
        }
    }

    /// Runs the pending chords that can no longer continue: the longest run from the start that
    /// means something, then the longest from there, and so on (a chord that means nothing is
    /// dropped), all looked up in the layer the first was tapped in.
    private mutating func resolvePending(_ state: inout DeviceState, id: DeviceID, keymap: Keymap, into out: inout [Output]) {
        guard let pending = state.pending else { return }
        state.pending = nil
        var rest = pending.keys[...]
        while !rest.isEmpty {
            var taken = 1
            for n in stride(from: rest.count, through: 1, by: -1) {
                if let action = keymap.status(of: rest.prefix(n), layer: pending.layer).action {
                    execute(action, state: &state, id: id, keymap: keymap, into: &out)
                    taken = n
                    break
                }
            }
            rest = rest.dropFirst(taken)
        }
    }

    /// The layer a tap is looked up in: the pending chords' if any, else the active one.
    private func lookupLayer(_ state: DeviceState) -> Int { state.pending?.layer ?? state.effectiveLayer }
}

/// A layer's two-hand chords, with `base`'s when it falls through: the two indexes are asked in
/// turn, never merged, so a tap costs two bit tests and at most two set lookups.
struct PairLookup {
    let own: PairIndex
    let base: PairIndex?

    init(_ keymap: Keymap, layer: Int) {
        own = keymap.layers[layer].pairs
        base = layer != 0 && keymap.layers[layer].fallsThrough ? keymap.layers[0].pairs : nil
    }

    /// True if `chord` of `hand` is one side of some two-hand chord here.
    func starts(_ chord: Chord, on hand: Hand) -> Bool {
        own.starts(chord, on: hand) || base?.starts(chord, on: hand) == true
    }

    /// True if the layer writes `h` for that one hand.
    func isOneSided(_ h: HandChord) -> Bool {
        own.oneSided.contains(h) || base?.oneSided.contains(h) == true
    }
}

/// Chords played so far that may still continue (a multi-tap or a sequence).
struct Pending: Sendable {
    var keys: [ChordKey]
    /// The layer they are looked up in: the one active when the first was tapped.
    var layer: Int
    var deadline: EngineTime
}

/// A tap of one hand waiting for the other hand's.
struct WaitingTap: Sendable {
    var hand: Hand
    var chord: Chord
    /// When it was tapped: it plays at this time if the other hand does not come.
    var at: EngineTime
    var deadline: EngineTime
}

/// What a run of played chords means in a layer (``Keymap/status(of:layer:)``).
struct PathStatus {
    /// What it does if nothing follows.
    var action: Action?
    /// True if a longer run could mean something: wait up to ``window`` for the next chord.
    var canContinue = false
    var window: UInt64 = 0
}

extension Keymap {
    /// One chord played with nothing pending: the hot path, without allocating.
    func status(of key: ChordKey, layer: Int) -> PathStatus {
        var s = PathStatus()
        if let b = binding(for: key, layer: layer) {
            s.action = b.tap
            if b.maxCount > 1 { (s.canContinue, s.window) = (true, windowNs) }
        }
        if let (tree, node) = sequenceStart(key, layer: layer), !tree.nodes[node].children.isEmpty {
            (s.canContinue, s.window) = (true, max(s.window, sequenceWindowNs))
        }
        return s
    }

    /// A run of played chords: a sequence written for it wins over a multi-tap of the same chord.
    /// (Any collection: ``resolvePending`` asks about prefixes of the pending run without copying them.)
    func status(of path: some Collection<ChordKey>, layer: Int) -> PathStatus {
        let first = path.first!
        guard path.count > 1 else { return status(of: first, layer: layer) }
        var s = PathStatus()
        if path.count <= 3, path.allSatisfy({ $0 == first }), let b = binding(for: first, layer: layer) {
            s.action = b.action(forCount: path.count)
            if path.count < b.maxCount { (s.canContinue, s.window) = (true, windowNs) }
        }
        if let (tree, start) = sequenceStart(first, layer: layer) {
            var node: Int? = start
            for key in path.dropFirst() { node = node.flatMap { tree.child(of: $0, played: key) } }
            if let node {
                if let a = tree.nodes[node].action { s.action = a }
                if !tree.nodes[node].children.isEmpty { (s.canContinue, s.window) = (true, max(s.window, sequenceWindowNs)) }
            }
        }
        return s
    }

    /// The sequence tree that a run starting with `key` follows, and the node after `key`: the
    /// layer's own, else `base`'s when the layer falls through.
    private func sequenceStart(_ key: ChordKey, layer: Int) -> (SequenceTree, Int)? {
        let own = layers[layer].sequenceTree
        if !own.isEmpty, let n = own.child(of: 0, played: key) { return (own, n) }
        guard layer != 0, layers[layer].fallsThrough else { return nil }
        let base = layers[0].sequenceTree
        if !base.isEmpty, let n = base.child(of: 0, played: key) { return (base, n) }
        return nil
    }
}

