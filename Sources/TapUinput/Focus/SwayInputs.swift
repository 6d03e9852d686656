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

/// The keyboards sway reports, and the one whose layout turns the daemon's keys into text.
///
/// sway gives every keyboard its own keymap (`input <identifier> xkb_layout ...`), so the
/// layout that matters is our own virtual keyboard's, found by its device name; before it
/// exists (or when sway names it otherwise) the first keyboard's stands in.
struct SwayKeyboards {
    /// Our uinput keyboard's name (``DeviceProfile/keyboard``).
    let preferredName: String
    /// Keyboards in the order sway listed or added them: identifier, name, layout description.
    private(set) var keyboards: [(identifier: String, name: String, layout: String)] = []

    init(preferredName: String) { self.preferredName = preferredName }

    /// Replaces everything with a `GET_INPUTS` reply.
    mutating func replaceAll(_ inputs: [SwayInput]) {
        keyboards = []
        for input in inputs { update(input) }
    }

    /// Applies an `input` event.
    mutating func apply(_ event: SwayInputEvent) {
        if event.change == "removed" {
            keyboards.removeAll { $0.identifier == event.input.identifier }
        } else {
            update(event.input)
        }
    }

    /// The active layout's description of the keyboard that matters; nil without keyboards.
    var activeLayout: String? {
        (keyboards.first { $0.name == preferredName } ?? keyboards.first)?.layout
    }

    private mutating func update(_ input: SwayInput) {
        guard input.type == "keyboard", let layout = input.xkb_active_layout_name, !layout.isEmpty else { return }
        let entry = (identifier: input.identifier, name: input.name ?? "", layout: layout)
        if let i = keyboards.firstIndex(where: { $0.identifier == input.identifier }) {
            keyboards[i] = entry
        } else {
            keyboards.append(entry)
        }
    }
}
