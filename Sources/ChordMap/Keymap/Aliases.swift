/// Replaces `@name` references with the actions `[aliases]` defines, after the `extends` chain is
/// merged: late binding, so a child that redefines an alias changes its parent's bindings that use
/// it too (like a CSS variable).
///
/// Each alias is resolved once and remembered, so resolution is linear in the keymap's size.
/// Depth and expanded size are bounded: an alias chain more than ``maxDepth`` aliases long, or
/// expanding to more than ``maxSize`` actions (`a = ["@b", "@b"]`, `b = ["@c", "@c"]`, ... grows
/// exponentially), is an error rather than a keymap that takes long to resolve or run.
struct AliasResolver {
    static let maxDepth = 8
    static let maxSize = 1_000

    typealias Problem = (location: SourceLocation, message: String, hint: String?)

    private enum Resolution {
        /// `depth`: how many aliases deep the longest chain of references inside goes.
        case resolved(Action, size: Int, depth: Int)
        /// Already reported; references to it report nothing more.
        case failed
    }

    let definitions: [String: Located<Action>]
    private var done: [String: Resolution] = [:]
    private var hints: [String: String] = [:]
    private var listed: String?
    static let maxSuggested = 20
    private(set) var problems: [Problem] = []

    init(definitions: [String: Located<Action>]) { self.definitions = definitions }

    /// Resolves every definition, so a cycle or an unknown reference in an unused alias is
    /// reported too.
    mutating func checkAll() {
        for name in definitions.keys.sorted() { _ = lookup(name, at: definitions[name]!.location, stack: []) }
    }

    /// `action`, written at `location`, with every reference replaced; nil if one failed (reported).
    mutating func resolve(_ action: Action, at location: SourceLocation) -> Action? {
        guard case .resolved(let a, let size, _)? = resolve(action, at: location, stack: []) else { return nil }
        if size > Self.maxSize {
            problems.append((location, "this action expands to \(size) actions through its aliases, more than \(Self.maxSize)",
                             "aliases that repeat other aliases multiply; write a shorter action"))
            return nil
        }
        return a
    }

    private mutating func resolve(_ action: Action, at location: SourceLocation, stack: [String]) -> Resolution? {
        switch action {
        case .alias(let name):
            return lookup(name, at: location, stack: stack)
        case .sequence(let actions):
            guard let parts = resolveAll(actions, at: location, stack: stack) else { return .failed }
            return .resolved(.sequence(parts.map(\.0)), size: parts.reduce(1) { $0 + $1.1 }, depth: parts.map(\.2).max() ?? 0)
        case .macro(let steps):
            guard let parts = resolveAll(steps.map(\.action), at: location, stack: stack) else { return .failed }
            let resolved = zip(steps, parts).map { MacroStep(delayMs: $0.delayMs, action: $1.0) }
            return .resolved(.macro(resolved), size: parts.reduce(1) { $0 + $1.1 }, depth: parts.map(\.2).max() ?? 0)
        default:
            return .resolved(action, size: 1, depth: 0)
        }
    }

    private mutating func resolveAll(_ actions: [Action], at location: SourceLocation, stack: [String]) -> [(Action, Int, Int)]? {
        var out: [(Action, Int, Int)] = []
        var ok = true
        for a in actions {
            // Keep going after a failure, so every bad reference in one action is reported.
            if case .resolved(let r, let size, let depth)? = resolve(a, at: location, stack: stack) { out.append((r, min(size, Self.maxSize + 1), depth)) }
            else { ok = false }
        }
        return ok ? out : nil
    }

    /// Did-you-mean for an unknown alias. Comparing a name with every alias is linear in the
    /// number of aliases, so only the first ``maxSuggested`` unknown names get one (each once):
    /// a file full of unknown references still loads in linear time.
    private mutating func unknownHint(_ name: String) -> String {
        if let known = hints[name] { return known }
        if definitions.isEmpty { return "define it under [aliases], e.g. \(name) = \"ctrl+s\"" }
        if listed == nil {   // built once: sorting every alias per unknown reference would be quadratic
            listed = "define it under [aliases]; defined: " + definitions.keys.sorted().prefix(10).map { "@\($0)" }.joined(separator: ", ")
                + (definitions.count > 10 ? ", ..." : "")
        }
        let fallback = listed!
        guard hints.count < Self.maxSuggested else { return fallback }
        let hint = Suggest.hint(name, in: Array(definitions.keys)) ?? fallback
        hints[name] = hint
        return hint
    }

    private mutating func lookup(_ name: String, at location: SourceLocation, stack: [String]) -> Resolution {
        if let known = done[name] { return known }
        guard let definition = definitions[name] else {
            problems.append((location, "unknown alias \"@\(name)\"", unknownHint(name)))
            return .failed
        }
        if let start = stack.firstIndex(of: name) {
            let cycle = (stack[start...] + [name]).map { "@\($0)" }.joined(separator: " -> ")
            problems.append((definition.location, "alias cycle: \(cycle)", "an alias may not use itself, directly or through other aliases"))
            for n in stack[start...] { done[n] = .failed }
            return .failed
        }
        var result = resolve(definition.value, at: definition.location, stack: stack + [name]) ?? .failed
        if case .resolved(let a, let size, let depth) = result {
            // Counted from the bottom and remembered, so the verdict does not depend on which
            // alias happened to be resolved first.
            if depth + 1 > Self.maxDepth {
                problems.append((definition.location, "aliases nest more than \(Self.maxDepth) deep below @\(name)",
                                 "write the action out in one of the aliases instead of referring further"))
                result = .failed
            } else {
                result = .resolved(a, size: size, depth: depth + 1)
            }
        }
        if done[name] == nil { done[name] = result }   // a cycle through `name` already marked it failed
        return done[name]!
    }
}
