/// A value and where it was written.
struct Located<Value> {
    var value: Value
    var location: SourceLocation
}

/// One keymap file as written, before `extends` is resolved: every field optional, so a child
/// file only states what it changes. ``KeymapLoader`` merges a chain of these into a ``Keymap``.
struct KeymapDocument {
    var file: String
    var name: String?
    var extends: Located<String>?
    var multiTapWindowMs: Int?
    var comboWindowMs: Int?
    var sequenceWindowMs: Int?
    var hands: HandRoles?
    var allowCommands: Bool?
    var layout: String?
    var unicode: UnicodeInput?
    /// Each `[mouse]` field as a setter, applied over the parent's settings.
    var mouse: [(inout MouseSettings) -> Void] = []
    var match: KeymapMatch?
    var gestures: [Int: Located<Action>] = [:]
    var layers: [LayerDocument] = []
    /// `[aliases]`: name -> action, references (`@name`) still unresolved.
    var aliases: [String: Located<Action>] = [:]
    /// Each `[feedback]` field as a setter, applied over the parent's settings.
    var feedback: [(inout FeedbackSettings) -> Void] = []
}

/// One `[layers.NAME]` table as written.
struct LayerDocument {
    var name: String
    var header: SourceLocation
    var fallsThrough: Bool?
    var bindings: [Chord: Located<Binding>] = [:]
    var handBindings: [HandChord: Located<Binding>] = [:]
    var sequences: [[ChordKey]: Located<Action>] = [:]
    var returnAfterChords: Int?
    var returnAfterMs: Int?
    var onEnter: Located<Action>?
    var onLeave: Located<Action>?

    /// Every binding's actions with where it is written, for checks over the whole layer.
    var locatedActions: [(location: SourceLocation, actions: [Action])] {
        bindings.values.map { ($0.location, $0.value.allActions) }
            + handBindings.values.map { ($0.location, $0.value.allActions) }
            + sequences.values.map { ($0.location, [$0.value]) }
    }
}
