/// A validated keymap, ready for the ``Engine``. Build one with ``KeymapLoader``.
///
/// Layer 0 is always `base` (the initialiser adds an empty one if given no layers). When built by
/// the loader, every layer that an action names exists and every layer is reachable from `base`;
/// the engine treats a hand-built keymap's unknown layer names as `base`.
public struct Keymap: Sendable, Equatable {
    /// The keymap's `name`, or the file it came from.
    public var name: String
    public var layers: [Layer]
    public var options: KeymapOptions
    public var mouse: MouseSettings
    /// Air gesture code (1...14) or TapXR hand state (100...105) -> action. A key or button bound to a
    /// hand state is held while the hand stays in that state.
    public var gestures: [Int: Action]
    /// Where this keymap applies (for per-application / per-device selection by the daemon).
    public var match: KeymapMatch
    /// `[hands]`: the devices that act as one keyboard, if the keymap names them.
    public var hands = HandRoles()
    /// The files it was loaded from: its own first, then every file it extends (the built-in
    /// keymap is not a file). Whoever can write any of them decides what this keymap does, so
    /// the daemon checks all of them before running a keymap's commands.
    public var files: [String] = []
    /// Where each character the keymap types was first written, for positioned warnings about
    /// characters a layout cannot type.
    public var characterLocations: [Character: SourceLocation] = [:]
    /// `[feedback]`: which default haptic pulses the engine emits.
    public var feedback = FeedbackSettings()

    /// Index of a layer by name.
    public func layerIndex(named name: String) -> Int? { layers.firstIndex { $0.name == name } }

    public init(name: String, layers: [Layer], options: KeymapOptions = .init(), mouse: MouseSettings = .init(),
                gestures: [Int: Action] = [:], match: KeymapMatch = .init()) {
        self.name = name
        // The engine indexes layer 0 unconditionally; a hand-built keymap always gets one.
        self.layers = layers.isEmpty ? [Layer(name: "base")] : layers
        self.options = options
        self.mouse = mouse
        self.gestures = gestures
        self.match = match
    }
}

/// A named layer: up to 31 bindings, indexed by chord value.
public struct Layer: Sendable, Equatable {
    public var name: String
    /// When true (the default), a chord this layer leaves unbound is looked up in `base`.
    public var fallsThrough: Bool
    /// Index 0 unused; index n is chord n.
    var table: [Binding?]
    /// Bindings of one particular hand (`".....|x...."`) or of both hands (`"....x|x...."`) of a
    /// pair; a tap of one hand looks here before ``subscript(_:)``.
    public var handBindings: [HandChord: Binding] = [:] { didSet { pairs = PairIndex(self) } }
    /// Chord sequences (two or more chords in a row) and what they do.
    public var sequences: [[ChordKey]: Action] = [:] {
        didSet {
            sequenceTree = SequenceTree(sequences)
            pairs = PairIndex(self)
        }
    }
    /// ``sequences`` as a prefix tree, for the engine.
    private(set) var sequenceTree = SequenceTree([:])
    /// Which one-hand chords can start a two-hand chord here, for the engine.
    private(set) var pairs = PairIndex()
    /// `return-after-chords`: a toggled layer returns to base after this many chords in it.
    public var returnAfterChords: Int?
    /// `return-after-ms`: a toggled layer returns to base when no chord was tapped in it for this
    /// long (counted from entering it, then from each chord).
    public var returnAfterMs: Int?
    /// `on-enter` / `on-leave`: run whenever the layer becomes / stops being the active one
    /// (toggle, one-shot, auto-return, `clear`; not release-all). Never switch layers.
    public var onEnter: Action?
    public var onLeave: Action?

    public init(name: String, fallsThrough: Bool = true, bindings: [Chord: Binding] = [:],
                handBindings: [HandChord: Binding] = [:], sequences: [[ChordKey]: Action] = [:]) {
        self.name = name
        self.fallsThrough = fallsThrough
        self.table = Array(repeating: nil, count: 32)
        for (chord, binding) in bindings { table[Int(chord.rawValue)] = binding }
        self.handBindings = handBindings
        self.sequences = sequences
        self.sequenceTree = SequenceTree(sequences)
        self.pairs = PairIndex(self)
    }

    /// The binding for a played chord: the hand's own (or both hands') binding first, then the
    /// one-hand binding of whichever hand.
    public func binding(for played: ChordKey) -> Binding? {
        switch played {
        case .anyHand(let c): return table[Int(c.rawValue)]
        case .hands(let h):
            if !handBindings.isEmpty, let b = handBindings[h] { return b }
            guard let c = h.oneHand else { return nil }
            return table[Int(c.rawValue)]
        }
    }

    public subscript(chord: Chord) -> Binding? {
        get { table[Int(chord.rawValue)] }
        set { table[Int(chord.rawValue)] = newValue }
    }

    /// The bound chords with their bindings, in chord order.
    public var bindings: [(chord: Chord, binding: Binding)] {
        (1...31).compactMap { i in table[i].map { (Chord(rawValue: UInt8(i))!, $0) } }
    }
}

/// `[options]`.
public struct KeymapOptions: Sendable, Equatable {
    /// Time allowed between taps of a double/triple tap (tap-protocol §5.6: 250-350 ms in practice).
    public var multiTapWindowMs: Int = 300
    /// `run` actions are refused unless the keymap's owner sets this.
    public var allowCommands: Bool = false
    /// How long a tap that can start a two-hand chord waits for the other hand.
    public var comboWindowMs: Int = 60
    /// Time allowed between the chords of a sequence.
    public var sequenceWindowMs: Int = 500
    /// `layout`: the keyboard layout characters are typed for (`"de"`, `"fr(azerty)"`), instead of
    /// the one the desktop reports; nil to follow the desktop.
    public var layout: String?
    /// `unicode`: how to type characters the layout has no key for.
    public var unicode: UnicodeInput = .none
    public init() {}
}

/// How characters that no key of the layout types are entered.
public enum UnicodeInput: String, Sendable, Equatable, CaseIterable {
    /// Not at all: such a character is a warning (from `check` and in the daemon's log).
    case none
    /// Ctrl+Shift+U, the code point in hex, Space: GTK, and Qt or anything else under IBus.
    case ctrlShiftU = "ctrl-shift-u"
}

/// `[mouse]`: velocity -> pointer motion.
///
/// Motion per packet is `v * sensitivity * gain(speed)`, where `speed = sqrt(vx² + vy²)` and
/// `gain = min(maxGain, 1 + acceleration * max(0, speed - threshold) / threshold)`. Fractions are
/// carried to the next packet, so slow movement is not lost to rounding.
public struct MouseSettings: Sendable, Equatable {
    public var sensitivity: Double = 1.0
    public var acceleration: Double = 0.0
    public var threshold: Double = 10.0
    public var maxGain: Double = 4.0
    /// Hi-res wheel units per velocity unit in scroll mode (120 = one notch).
    public var scrollSensitivity: Double = 2.0
    public var invertX = false
    public var invertY = false
    /// Natural scrolling: motion down scrolls the content down.
    public var naturalScroll = false
    public init() {}
}

/// `[match]`: which applications, window titles and devices a keymap is meant for. The engine
/// does not use it; the daemon's per-application selection does. Every entry is a
/// ``GlobPattern`` (`"firefox"`, `"*chromium*"`, `"*YouTube*"`), matched case-insensitively
/// against the whole name.
public struct KeymapMatch: Sendable, Equatable {
    /// Application ids / window classes (e.g. `"firefox"`, `"org.gnome.Terminal"`, `"*chrom*"`).
    public var apps: [String] = []
    /// Window titles (e.g. `"*YouTube*"`).
    public var titles: [String] = []
    /// Device names or addresses.
    public var devices: [String] = []

    /// Whether a keymap with this match is meant for `app` on `device`. An empty list matches
    /// anything; a nil value matches only an empty list.
    public func matches(app: String?, device: DeviceID?) -> Bool {
        Self.any(apps, app) && Self.any(devices, device)
    }

    /// Whether `title` matches ``titles`` (an empty list matches anything).
    public func matches(title: String) -> Bool { Self.any(titles, title) }
    /// Whether `app` matches ``apps`` (an empty list matches anything).
    public func matches(app: String) -> Bool { Self.any(apps, app) }
    /// Whether `device` (an address or a name) matches ``devices`` (an empty list matches anything).
    public func matches(device: String) -> Bool { Self.any(devices, device) }

    static func any(_ list: [String], _ value: String?) -> Bool {
        guard !list.isEmpty else { return true }
        guard let value else { return false }
        return list.contains { entry in
            // The loader rejects bad patterns; one built in code falls back to plain comparison.
            guard let pattern = try? GlobPattern(entry) else { return entry.lowercased() == value.lowercased() }
            return pattern.matches(value)
        }
    }

    public init(apps: [String] = [], titles: [String] = [], devices: [String] = []) {
        self.apps = apps
        self.titles = titles
        self.devices = devices
    }
}
