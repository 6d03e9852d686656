import FoundationEssentials

/// An input device as sway's `GET_INPUTS` reply and `input` events describe it (the fields the
/// layout needs; i3 has neither).
struct SwayInput: Decodable {
    var identifier: String
    var name: String?
    var type: String?
    /// The description of the active layout (`"German"`), keyboards only.
    var xkb_active_layout_name: String?
}

/// An `input` event: `change` is `added`, `removed`, `xkb_keymap`, `xkb_layout`, ...
struct SwayInputEvent: Decodable {
    var change: String
    var input: SwayInput
}

extension KeyboardLayoutTable {
    /// Replaces everything with a `GET_INPUTS` reply.
    mutating func replaceAll(_ inputs: [SwayInput]) {
        removeAll()
        for input in inputs { update(input) }
    }

    /// Applies an `input` event.
    mutating func apply(_ event: SwayInputEvent) {
        if event.change == "removed" {
            remove(identifier: event.input.identifier)
        } else {
            update(event.input)
        }
    }

    private mutating func update(_ input: SwayInput) {
        guard input.type == "keyboard", let layout = input.xkb_active_layout_name else { return }
        update(identifier: input.identifier, name: input.name ?? "", layout: layout)
    }
}
