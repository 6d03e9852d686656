import DBus

/// The tray's menu exported as `com.canonical.dbusmenu` (protocol version 3), the menu
/// StatusNotifierItem hosts (KDE, waybar, GNOME's AppIndicator extension) fetch and show.
///
/// Contract:
/// - `GetLayout(parent, depth, names)` answers the current revision and the `(ia{sv}av)` tree
///   under `parent`; `GetGroupProperties(ids, names)` each known id's properties (all items for
///   an empty list); `GetProperty(id, name)` one value. An unknown id or property is an
///   `org.freedesktop.DBus.Error.InvalidArgs` error, never a crash.
/// - `Event(id, "clicked", data, time)` runs the item's action through ``onAction``; other
///   event ids (`opened`, `closed`, `hovered`) are accepted and ignored. `EventGroup` does the
///   same per event and answers the ids it did not know.
/// - `AboutToShow` answers false: the menu is always current, hosts never need to refetch.
/// - ``update(_:)`` with a new tree bumps the revision and emits `LayoutUpdated(revision, 0)`
///   when items came or went, or `ItemsPropertiesUpdated` when only labels, toggles or
///   enabled states changed; an identical tree emits nothing.
///
/// Runs on the connection's loop; handlers answer at once (nothing waits for the daemon).
public final class DBusMenuObject {
    public static let interface = "com.canonical.dbusmenu"
    public let path: String
    public private(set) var revision: UInt32 = 1
    public private(set) var root: TrayMenuItem
    /// Called for a click on an item that has an action.
    public var onAction: ((TrayAction) -> Void)?
    private let connection: DBusConnection

    /// Exports the menu at `path` with `root` as its first revision.
    public init(connection: DBusConnection, path: String, root: TrayMenuItem) throws(DBusError) {
        self.connection = connection
        self.path = path
        self.root = root
        let object = DBusObject(path: path)
        object.add(makeInterface())
        try connection.export(object)
    }

    public func close() { connection.unexport(path: path) }

    /// Replaces the tree and tells the hosts what changed (see the type's contract).
    public func update(_ newRoot: TrayMenuItem) {
        guard newRoot != root else { return }
        let old = root
        root = newRoot
        revision &+= 1
        if old.shape != newRoot.shape {
            emit("LayoutUpdated", [.uint32(revision), .int32(0)])
            return
        }
        let before = Dictionary(old.all.map { ($0.id, $0.properties) }, uniquingKeysWith: { a, _ in a })
        var updated: [DBusValue] = [], removed: [DBusValue] = []
        for item in newRoot.all {
            let now = item.properties, was = before[item.id] ?? [:]
            guard now != was else { continue }
            updated.append(.structure([.int32(item.id), .dictionary(now)]))
            let gone = was.keys.filter { now[$0] == nil }.sorted()
            if !gone.isEmpty { removed.append(.structure([.int32(item.id), .strings(gone)])) }
        }
        emit("ItemsPropertiesUpdated", [.array(elementSignature: "(ia{sv})", updated),
                                        .array(elementSignature: "(ias)", removed)])
    }

    /// The item with `id` in the current tree.
    public func item(_ id: Int32) -> TrayMenuItem? { root.all.first { $0.id == id } }

    private func emit(_ name: String, _ arguments: [DBusValue]) {
        connection.emitSignal(path: path, interface: Self.interface, name: name, arguments: arguments)
    }

    private static func unknownItem(_ id: Int32) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no menu item \(id)")
    }

    /// Runs the action of a click on `item`.
    private func event(_ item: TrayMenuItem, _ kind: String) {
        if kind == "clicked", item.enabled, let action = item.action { onAction?(action) }
    }

    private func makeInterface() -> DBusInterface {
        DBusInterface(name: Self.interface, methods: [
            "GetLayout": DBusMethod(in: "iias", out: "u(ia{sv}av)") { [weak self] call in
                guard let self else { return }
                let a = call.arguments
                let id = Int32(a[0].int ?? -1)
                guard let item = self.item(id) else { call.fail(Self.unknownItem(id)); return }
                call.reply([.uint32(self.revision), item.layout(depth: a[1].int ?? -1, names: a[2].stringArray ?? [])])
            },
            "GetGroupProperties": DBusMethod(in: "aias", out: "a(ia{sv})") { [weak self] call in
                guard let self else { return }
                let ids = (call.arguments[0].array ?? []).compactMap(\.int).map { Int32(truncatingIfNeeded: $0) }
                let names = call.arguments[1].stringArray ?? []
                let items = ids.isEmpty ? self.root.all : ids.compactMap { self.item($0) }
                call.reply([.array(elementSignature: "(ia{sv})", items.map { item in
                    var props = item.properties
                    if !names.isEmpty { props = props.filter { names.contains($0.key) } }
                    return .structure([.int32(item.id), .dictionary(props)])
                })])
            },
            "GetProperty": DBusMethod(in: "is", out: "v") { [weak self] call in
                guard let self else { return }
                let id = Int32(truncatingIfNeeded: call.arguments[0].int ?? -1), name = call.arguments[1].string ?? ""
                guard let item = self.item(id) else { call.fail(Self.unknownItem(id)); return }
                guard let value = item.properties[name] else {
                    call.fail(DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "menu item \(id) has no property \(name)"))
                    return
                }
                call.reply([.variant(value)])
            },
            "Event": DBusMethod(in: "isvu", out: "") { [weak self] call in
                guard let self else { return }
                let id = Int32(truncatingIfNeeded: call.arguments[0].int ?? -1)
                // Answer first: the action may take a while to reach the daemon.
                guard let item = self.item(id) else { call.fail(Self.unknownItem(id)); return }
                call.reply([])
                self.event(item, call.arguments[1].string ?? "")
            },
            "EventGroup": DBusMethod(in: "a(isvu)", out: "ai") { [weak self] call in
                guard let self else { return }
                var unknown: [DBusValue] = []
                var known: [(TrayMenuItem, String)] = []
                for e in call.arguments[0].array ?? [] {
                    guard case .structure(let m) = e, m.count == 4 else { continue }
                    let id = Int32(truncatingIfNeeded: m[0].int ?? -1)
                    if let item = self.item(id) { known.append((item, m[1].string ?? "")) } else { unknown.append(.int32(id)) }
                }
                call.reply([.array(elementSignature: "i", unknown)])
                for (item, kind) in known { self.event(item, kind) }
            },
            "AboutToShow": DBusMethod(in: "i", out: "b") { call in call.reply([.bool(false)]) },
            "AboutToShowGroup": DBusMethod(in: "ai", out: "aiai") { call in
                call.reply([.array(elementSignature: "i", []), .array(elementSignature: "i", [])])
            },
        ], properties: [
            "Version": DBusProperty(signature: "u") { .uint32(3) },
            "TextDirection": DBusProperty(signature: "s") { .string("ltr") },
            "Status": DBusProperty(signature: "s") { .string("normal") },
            "IconThemePath": DBusProperty(signature: "as") { .strings([]) },
        ], signals: [
            "ItemsPropertiesUpdated": "a(ia{sv})a(ias)",
            "LayoutUpdated": "ui",
            "ItemActivationRequested": "iu",
        ])
    }
}
