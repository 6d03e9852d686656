import DBus

/// What a menu item does when clicked.
public enum TrayAction: Equatable, Sendable {
    /// The daemon's `Reload()`.
    case reload
    /// The daemon's `SetKeymap(path)`; `""` returns to automatic selection.
    case setKeymap(String)
    /// The daemon's `Vibrate(device, pattern)`: find a TAP by feel.
    case vibrate(device: String)
    /// Writes the active keymap's cheat sheet and opens it.
    case openCheatsheet
    case quit
}

/// One entry of the tray's menu, in the `com.canonical.dbusmenu` model.
public struct TrayMenuItem: Equatable, Sendable {
    /// A radio item's state; nil for plain items.
    public enum Toggle: Equatable, Sendable { case on, off }

    public var id: Int32
    public var label = ""
    public var enabled = true
    public var isSeparator = false
    public var toggle: Toggle?
    public var action: TrayAction?
    public var children: [TrayMenuItem] = []

    /// The item's dbusmenu properties. Defaults (`type` standard, `enabled` true, `visible` true)
    /// are left out, as the protocol asks, so hosts apply theirs.
    public var properties: [String: DBusValue] {
        var p: [String: DBusValue] = [:]
        if isSeparator { p["type"] = .string("separator"); return p }
        // "_" marks the access key in dbusmenu labels: "Tap_1" would show as "Tap1".
        if !label.isEmpty { p["label"] = .string(label.replacing("_", with: "__")) }
        if !enabled { p["enabled"] = .bool(false) }
        if let toggle {
            p["toggle-type"] = .string("radio")
            p["toggle-state"] = .int32(toggle == .on ? 1 : 0)
        }
        if !children.isEmpty { p["children-display"] = .string("submenu") }
        return p
    }

    /// The `(ia{sv}av)` layout of this item, `depth` levels of children deep (-1: all), each
    /// with only `names` of its properties (empty: all).
    public func layout(depth: Int, names: [String]) -> DBusValue {
        var props = properties
        if !names.isEmpty { props = props.filter { names.contains($0.key) } }
        let kids = depth == 0 ? [] : children.map { DBusValue.variant($0.layout(depth: depth < 0 ? -1 : depth - 1, names: names)) }
        return .structure([.int32(id), .dictionary(props), .array(elementSignature: "v", kids)])
    }

    /// This item and every item below it, depth first.
    public var all: [TrayMenuItem] { [self] + children.flatMap(\.all) }

    /// The ids of this item and its descendants in tree shape: equal shapes need no LayoutUpdated.
    var shape: [Int32] { [id, Int32(children.count)] + children.flatMap(\.shape) }
}

/// The tray's menu for a ``TrayState``, and the ids that keep naming the same things.
///
/// Ids are **stable**: "Reload" or the keymap `web.toml` keep their id across rebuilds, so an
/// `Event` a host sends for a menu it fetched before a change still reaches the item the user
/// clicked (an item that is gone is reported as unknown, never confused with another).
public final class TrayMenuIDs {
    private var ids: [String: Int32] = [:]
    private var next: Int32 = 1

    public init() {}

    /// The id for `key`, assigned on first use; 0 is the root.
    public func id(_ key: String) -> Int32 {
        if let id = ids[key] { return id }
        defer { next += 1 }
        ids[key] = next
        return next
    }
}

public enum TrayMenu {
    /// The pattern that finds a TAP: three long pulses (on, off, on, off, on in ms).
    public static let findPattern = [400, 200, 400, 200, 400]

    /// The menu for `state`: Reload, the keymap submenu, one Vibrate item per device, the cheat
    /// sheet, Quit. Items that need the daemon are disabled while it is not running.
    public static func build(_ state: TrayState, ids: TrayMenuIDs) -> TrayMenuItem {
        let live = state.daemonRunning
        var items: [TrayMenuItem] = []
        items.append(TrayMenuItem(id: ids.id("reload"), label: "Reload keymaps", enabled: live, action: .reload))
        items.append(keymapMenu(state, ids: ids))
        items.append(TrayMenuItem(id: ids.id("separator-devices"), isSeparator: true))
        if state.status.devices.isEmpty {
            items.append(TrayMenuItem(id: ids.id("no-devices"), label: live ? "No TAP connected" : "Daemon not running",
                                      enabled: false))
        }
        for d in state.status.devices {
            let name = d.displayName
            items.append(TrayMenuItem(id: ids.id("vibrate:" + d.id), label: "Find \(name) (vibrate)",
                                      enabled: live && d.connected, action: .vibrate(device: d.id)))
        }
        items.append(TrayMenuItem(id: ids.id("separator-end"), isSeparator: true))
        items.append(TrayMenuItem(id: ids.id("cheatsheet"), label: "Open cheat sheet", enabled: live, action: .openCheatsheet))
        items.append(TrayMenuItem(id: ids.id("quit"), label: "Quit tray", action: .quit))
        return TrayMenuItem(id: 0, children: items)
    }

    /// "Keymap: main" with "Automatic (by application)" and every keymap file as radio items.
    private static func keymapMenu(_ state: TrayState, ids: TrayMenuIDs) -> TrayMenuItem {
        let s = state.status
        var items = [TrayMenuItem(id: ids.id("keymap-auto"), label: "Automatic (by application)",
                                  toggle: s.keymapOverride.isEmpty ? .on : .off, action: .setKeymap(""))]
        for (file, name) in s.keymaps.sorted(by: { $0.key < $1.key }) {
            let base = file.split(separator: "/").last.map(String.init) ?? file
            items.append(TrayMenuItem(id: ids.id("keymap:" + file), label: "\(name) (\(base))",
                                      toggle: s.keymapOverride == file ? .on : .off, action: .setKeymap(file)))
        }
        let title = state.daemonRunning ? "Keymap: \(s.keymap)" : "Keymap"
        return TrayMenuItem(id: ids.id("keymap"), label: title, enabled: state.daemonRunning, children: items)
    }
}
