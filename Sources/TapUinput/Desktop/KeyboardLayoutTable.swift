import KeyboardLayout
import Logging

/// The keyboards a compositor reports with their active layout's description (sway's
/// `xkb_active_layout_name`, Hyprland's `activelayout`), and the one whose layout counts.
///
/// Compositors give every keyboard its own keymap, so the layout that turns the daemon's keys
/// into text is our own virtual keyboard's, found by its device name; before it exists (or when
/// the compositor names it otherwise) the first keyboard's stands in.
struct KeyboardLayoutTable {
    /// Our uinput keyboard's name as this compositor spells it.
    let preferredName: String
    /// Keyboards in the order they were reported: identifier, name, layout description.
    private(set) var keyboards: [(identifier: String, name: String, layout: String)] = []

    init(preferredName: String) { self.preferredName = preferredName }

    /// Records `layout` as the active layout of the keyboard `identifier`.
    mutating func update(identifier: String, name: String, layout: String) {
        guard !layout.isEmpty else { return }
        let entry = (identifier: identifier, name: name, layout: layout)
        if let i = keyboards.firstIndex(where: { $0.identifier == identifier }) {
            keyboards[i] = entry
        } else {
            keyboards.append(entry)
        }
    }

    mutating func remove(identifier: String) { keyboards.removeAll { $0.identifier == identifier } }
    mutating func removeAll() { keyboards = [] }

    /// The active layout's description of the keyboard that counts; nil without keyboards.
    var activeLayout: String? {
        (keyboards.first { $0.name == preferredName } ?? keyboards.first)?.layout
    }
}

/// The compositor sources' layouts: the keyboards' descriptions, and which one was reported.
struct LayoutDescriptions {
    var table: KeyboardLayoutTable
    /// The description last looked up, so each is looked up (and an unknown one logged) once.
    private var lastDescription: String?

    init(keyboardName: String) { table = KeyboardLayoutTable(preferredName: keyboardName) }

    /// The active layout's description and its XKB names (nil when xkeyboard-config does not
    /// list it), if the description changed since the last call.
    mutating func takeChange() -> (description: String, names: LayoutNames?)? {
        guard let description = table.activeLayout, description != lastDescription else { return nil }
        lastDescription = description
        return (description, LayoutRegistry.names(forDescription: description))
    }

    /// Forgets everything (a new start reports again).
    mutating func reset() {
        table.removeAll()
        lastDescription = nil
    }
}

extension DesktopSource {
    /// Reports the layout of the keyboard that counts in `layouts`, if it changed.
    func reportLayout(from layouts: inout LayoutDescriptions) {
        guard let change = layouts.takeChange() else { return }
        guard let names = change.names else {
            log.warning("\(name): layout \"\(change.description)\" is not in xkeyboard-config's list: characters stay typed for \(currentLayout?.summary ?? "the layout in use"); `tap-uinput run --layout` sets one")
            return
        }
        reportLayout(LayoutReport(.names(names), origin: name), detail: " (\"\(change.description)\")")
    }
}
