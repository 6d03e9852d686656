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

/// What a compositor source does with layout descriptions: map the one that counts to XKB names
/// (``LayoutRegistry``), drop repeats, log, and call the daemon's callback. Each source owns one.
final class LayoutDescriptionReporter {
    let origin: String
    var table: KeyboardLayoutTable
    var onChange: ((LayoutReport) -> Void)?
    private(set) var current: LayoutReport?
    /// The description last looked up, so an unknown one is logged once.
    private var lastDescription: String?
    private let log = LogSetup.logger("focus")

    init(origin: String, keyboardName: String) {
        self.origin = origin
        table = KeyboardLayoutTable(preferredName: keyboardName)
    }

    /// Forgets what was reported (a new start reports again).
    func reset() {
        table.removeAll()
        current = nil
        lastDescription = nil
    }

    /// Reports the layout of the keyboard that counts if it changed.
    func tableChanged() {
        guard let description = table.activeLayout, description != lastDescription else { return }
        lastDescription = description
        guard let names = LayoutRegistry.names(forDescription: description) else {
            log.warning("\(origin): layout \"\(description)\" is not in xkeyboard-config's list: characters stay typed for \(current?.summary ?? "the layout in use"); `tap-uinput run --layout` sets one")
            return
        }
        let report = LayoutReport(.names(names), origin: origin)
        guard report != current else { return }
        current = report
        log.info("\(origin): keyboard layout \(report.summary) (\"\(description)\")")
        onChange?(report)
    }
}
