/// The loader's part of aliases, macros and layer options: merging a child's layer options over
/// its parent's, and replacing alias references once the whole chain is merged.
extension LoadContext {
    /// Resolves every `@name` in bindings, gestures and layer hooks against the merged aliases
    /// (late binding), inlines macros in sequences, and checks what only the resolved actions
    /// show: macro bounds reached through aliases, and hooks that would switch layers.
    mutating func resolveAliases(_ aliases: [String: Located<Action>], layers: inout [LayerDocument],
                                 gestures: inout [Int: Located<Action>]) {
        var resolver = AliasResolver(definitions: aliases)
        resolver.checkAll()
        func finish(_ action: Action, at location: SourceLocation, problems: inout [AliasResolver.Problem]) -> Action? {
            guard let resolved = resolver.resolve(action, at: location) else { return nil }
            let flat = resolved.flatteningMacros
            if case .macro(let steps) = flat, let problem = MacroLimits.problem(steps) {
                problems.append((location, problem.message, problem.hint))
                return nil
            }
            return flat
        }
        var problems: [AliasResolver.Problem] = []
        func finish(_ b: Located<Binding>, problems: inout [AliasResolver.Problem]) -> Binding? {
            let binding = b.value
            let tap = finish(binding.tap, at: b.location, problems: &problems)
            let double = binding.double.map { finish($0, at: b.location, problems: &problems) }
            let triple = binding.triple.map { finish($0, at: b.location, problems: &problems) }
            guard let tap, double.map({ $0 != nil }) ?? true, triple.map({ $0 != nil }) ?? true else { return nil }
            return Binding(tap: tap, double: double ?? nil, triple: triple ?? nil)
        }
        for i in layers.indices {
            for (chord, b) in layers[i].bindings {
                if let binding = finish(b, problems: &problems) { layers[i].bindings[chord]!.value = binding }
            }
            for (chord, b) in layers[i].handBindings {
                if let binding = finish(b, problems: &problems) { layers[i].handBindings[chord]!.value = binding }
            }
            for (keys, a) in layers[i].sequences {
                if let action = finish(a.value, at: a.location, problems: &problems) { layers[i].sequences[keys]!.value = action }
            }
            for hook in [\LayerDocument.onEnter, \LayerDocument.onLeave] {
                guard let h = layers[i][keyPath: hook], let action = finish(h.value, at: h.location, problems: &problems) else { continue }
                layers[i][keyPath: hook]!.value = action
                if !action.layerReferences.isEmpty || action.clears {
                    let key = hook == \LayerDocument.onEnter ? "on-enter" : "on-leave"
                    problems.append((h.location, "\(key) may not switch layers or clear",
                                     "it runs while the layer changes; bind the switch to a chord instead"))
                }
            }
        }
        for (code, g) in gestures {
            if let action = finish(g.value, at: g.location, problems: &problems) { gestures[code]!.value = action }
        }
        for p in (resolver.problems + problems).sorted(by: { ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column) }) {
            report(p.location, p.message, hint: p.hint)
        }
    }
}

extension LayerDocument {
    /// `on-enter` and `on-leave` as written, for checks over every action of a layer.
    var hooks: [Located<Action>] { [onEnter, onLeave].compactMap { $0 } }

    /// A child's `[layers.NAME]` options override the parent's, one field at a time.
    mutating func mergeOptions(from child: LayerDocument) {
        if let n = child.returnAfterChords { returnAfterChords = n }
        if let ms = child.returnAfterMs { returnAfterMs = ms }
        if let a = child.onEnter { onEnter = a }
        if let a = child.onLeave { onLeave = a }
    }

    func applyOptions(to layer: inout Layer) {
        layer.returnAfterChords = returnAfterChords
        layer.returnAfterMs = returnAfterMs
        layer.onEnter = onEnter?.value
        layer.onLeave = onLeave?.value
    }
}

extension Action {
    /// True if any part of this action is `clear`.
    var clears: Bool {
        switch self {
        case .clear: true
        case .sequence(let actions): actions.contains(where: \.clears)
        case .macro(let steps): steps.contains(where: \.action.clears)
        default: false
        }
    }
}
