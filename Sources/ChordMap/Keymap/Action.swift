/// What a chord (or gesture) does. Built by the keymap loader; executed by the ``Engine``.
public indirect enum Action: Equatable, Sendable {
    /// Press and release `key` (a physical key or mouse button) with `modifiers` held around it.
    case key(KeyCode, modifiers: [KeyCode])
    /// Type `character` on the active keyboard layout, with `modifiers` held around it. With
    /// modifiers other than Shift it is a shortcut (`ctrl+z`): the key that types the character
    /// on the layout, or where the layout lacks it, the key at its US position (what applications
    /// match shortcuts against). Resolved into ``key(_:modifiers:)`` or ``typed(_:)`` by
    /// ``Keymap/resolvingCharacters(with:)`` before the engine runs it.
    case character(Character, modifiers: [KeyCode])
    /// Type a string, character by character, on the active layout. Ignores pending one-shot and
    /// locked modifiers. Resolved into ``typed(_:)`` like ``character(_:modifiers:)``.
    case text(String)
    /// The physical key that types `character` on a US keyboard (`us(ctrl+z)`), whatever the layout.
    case usKey(Character, modifiers: [KeyCode])
    /// Keystrokes resolved from characters for one layout: each pressed with its own modifiers and
    /// released before the next. Ignores pending one-shot and locked modifiers.
    case typed([KeyStroke])
    /// Run each action in order.
    case sequence([Action])
    /// Arm modifiers for the next key only. Tapping it again disarms; if the modifiers are locked,
    /// it unlocks them instead.
    case oneShotModifiers([KeyCode])
    /// Lock modifiers on until the same lock, a one-shot of them, or `clear`.
    case lockModifiers([KeyCode])
    /// Look up the next chord in this layer, then return.
    case oneShotLayer(String)
    /// Make this layer the active one; in that layer, toggling it again returns to base.
    case toggleLayer(String)
    /// Return to the base layer and drop one-shots, locks, drag lock and scroll mode.
    case clear
    /// Two clicks of a mouse button.
    case doubleClick(KeyCode)
    /// Hold a mouse button down until this action (or any click of it) again.
    case dragLock(KeyCode)
    /// Wheel notches in hi-res units (120 per notch): vertical positive = up, horizontal positive = right.
    case wheel(vertical: Int32, horizontal: Int32)
    /// Switch pointer motion between moving and scrolling.
    case toggleScroll
    case vibrate([Int])
    case setInputMode(String)
    case setXRState(String)
    /// argv, no shell; allowed only when the keymap sets `allow-commands = true`.
    case run([String])
    /// Does nothing. Used to unbind a chord inherited through `extends`.
    case none
    /// Actions with delays between them, run on the engine's virtual time (see ``MacroStep``).
    /// The steps before the first delay run at once; the rest at engine deadlines.
    case macro([MacroStep])
    /// `"@name"`: a reference to an `[aliases]` entry. Exists only while loading: the loader
    /// replaces every reference by the alias's action (the engine ignores one that is left).
    case alias(String)

    /// Layers this action switches to, for reachability checks.
    var layerReferences: [String] {
        switch self {
        case .oneShotLayer(let l), .toggleLayer(let l): [l]
        case .sequence(let actions): actions.flatMap(\.layerReferences)
        case .macro(let steps): steps.flatMap(\.action.layerReferences)
        default: []
        }
    }

    /// The characters this action types (before resolution), in order.
    public var characters: [Character] {
        switch self {
        case .character(let c, _), .usKey(let c, _): [c]
        case .text(let s): Array(s)
        case .sequence(let actions): actions.flatMap(\.characters)
        case .macro(let steps): steps.flatMap(\.action.characters)
        default: []
        }
    }

    /// True if any part of this action is a `run`.
    var runsCommand: Bool {
        switch self {
        case .run: true
        case .sequence(let actions): actions.contains(where: \.runsCommand)
        case .macro(let steps): steps.contains(where: \.action.runsCommand)
        default: false
        }
    }
}

/// A chord's actions for one, two and three taps within the multi-tap window.
public struct Binding: Equatable, Sendable {
    public var tap: Action
    public var double: Action?
    public var triple: Action?

    public init(tap: Action, double: Action? = nil, triple: Action? = nil) {
        self.tap = tap
        self.double = double
        self.triple = triple
    }

    /// The highest tap count with its own action: 1 means "emit at once, never wait".
    public var maxCount: Int { triple != nil ? 3 : double != nil ? 2 : 1 }

    /// The action for `count` taps, or nil if that count is not bound.
    public func action(forCount count: Int) -> Action? {
        switch count {
        case 1: tap
        case 2: double
        case 3: triple
        default: nil
        }
    }

    var allActions: [Action] { [tap] + [double, triple].compactMap { $0 } }

    /// The binding with `transform` applied to each of its actions.
    func mapActions(_ transform: (Action) -> Action) -> Binding {
        Binding(tap: transform(tap), double: double.map(transform), triple: triple.map(transform))
    }
}

extension Action {
    /// The names `input-mode(...)` accepts. The daemon translates each to the device's mode in
    /// one place (TapUinput's `InputMode(keymapName:)`), tested name by name.
    public static let inputModeNames = ["text", "controller", "controller+mouse", "controller+text", "raw"]
    /// The names `xr-state(...)` accepts (TapUinput's `XRState(keymapName:)`).
    public static let xrStateNames = ["air-mouse", "tapping", "auto"]
}
