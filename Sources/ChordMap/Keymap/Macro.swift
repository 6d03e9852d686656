/// One step of a macro: wait `delayMs` after the previous step (or after the trigger, for the
/// first), then run `action` whole. A step is never split: a key step is its press and its
/// release in one engine call, so nothing else can land between them.
public struct MacroStep: Equatable, Sendable {
    public var delayMs: Int
    public var action: Action

    public init(delayMs: Int = 0, action: Action) {
        self.delayMs = delayMs
        self.action = action
    }
}

/// The bounds a macro must keep, so a keymap cannot make the engine type for minutes or hold
/// an unbounded queue.
public enum MacroLimits {
    /// The longest single delay.
    public static let maxDelayMs = 5_000
    /// The longest whole macro (the sum of its delays).
    public static let maxTotalMs = 30_000
    /// The most actions in one macro.
    public static let maxSteps = 64
    /// The most steps one device may have waiting (macros triggered while one runs queue up to this).
    public static let maxQueuedSteps = 256

    /// What is wrong with a macro's size, or nil if it is within bounds.
    static func problem(_ steps: [MacroStep]) -> (message: String, hint: String)? {
        if steps.count > maxSteps {
            return ("a macro has at most \(maxSteps) actions, this one \(steps.count)",
                    "split it, or use { text = \"...\" } for long text")
        }
        let total = steps.reduce(0) { $0 + $1.delayMs }
        if total > maxTotalMs {
            return ("a macro's delays add up to at most \(maxTotalMs) ms, this one \(total) ms",
                    "shorten the delays; a macro is meant for a few seconds at most")
        }
        return nil
    }
}

extension Action {
    /// This action with every sequence that contains a macro turned into one flat macro (and a
    /// macro inside a macro inlined), so the engine never runs a sequence whose later parts would
    /// overtake a macro's delayed steps: `["a", { macro = ["b", 50, "c"] }, "d"]` types a, b,
    /// then after 50 ms c and d.
    var flatteningMacros: Action {
        switch self {
        case .sequence(let actions):
            let flat = actions.map(\.flatteningMacros)
            guard flat.contains(where: \.isMacro) else { return .sequence(flat) }
            return .macro(flat.flatMap(\.macroSteps))
        case .macro(let steps):
            return .macro(steps.flatMap { step in
                var inner = step.action.flatteningMacros.macroSteps
                inner[0].delayMs += step.delayMs
                return inner
            })
        default:
            return self
        }
    }

    var isMacro: Bool { if case .macro = self { true } else { false } }

    /// The action as macro steps: a macro's own steps, anything else one undelayed step.
    private var macroSteps: [MacroStep] {
        if case .macro(let steps) = self, !steps.isEmpty { return steps }
        return [MacroStep(action: self)]
    }
}
