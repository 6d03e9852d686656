import DBus
import EventLoop
import Glibc
import TestKit
import Testing
@testable import TapUinput

/// A minimal `org.kde.StatusNotifierWatcher`, as KDE, waybar and GNOME's AppIndicator extension
/// run one: it owns the watcher name, records each `RegisterStatusNotifierItem` with its sender,
/// and announces it with `StatusNotifierItemRegistered`, as the real ones do.
final class TestStatusNotifierWatcher {
    let connection: DBusConnection
    private(set) var items: [(sender: String, service: String)] = []

    init(address: String, loop: EventLoop) throws {
        connection = try DBusConnection(bus: .address(address), loop: loop)
        let object = DBusObject(path: Tray.watcherPath)
        object.add(DBusInterface(name: Tray.watcherName, methods: [
            "RegisterStatusNotifierItem": DBusMethod(in: "s") { [unowned self] call in
                let service = call.arguments[0].string ?? ""
                self.items.append((call.sender ?? "", service))
                call.reply([])
                self.connection.emitSignal(path: Tray.watcherPath, interface: Tray.watcherName,
                                           name: "StatusNotifierItemRegistered", arguments: [.string(service)])
            },
            "RegisterStatusNotifierHost": DBusMethod(in: "s") { call in call.reply([]) },
        ], properties: [
            "RegisteredStatusNotifierItems": DBusProperty(signature: "as") { [unowned self] in .strings(self.items.map(\.service)) },
            "IsStatusNotifierHostRegistered": DBusProperty(signature: "b") { .bool(true) },
            "ProtocolVersion": DBusProperty(signature: "i") { .int32(0) },
        ], signals: ["StatusNotifierItemRegistered": "s"]))
        try connection.export(object)
        try connection.requestName(Tray.watcherName)
    }

    func registered(_ tray: Tray) -> Bool {
        items.contains { $0.service == tray.busName && $0.sender == tray.connection.uniqueName }
    }

    func close() { connection.close() }
}

/// The host's side: a plain connection that reads the tray's properties and menu and clicks
/// its items, as a panel would.
final class TrayHost {
    let connection: DBusConnection
    let loop: EventLoop
    let tray: Tray
    private(set) var itemSignals: [String] = []
    private(set) var menuSignals: [String] = []

    init(address: String, loop: EventLoop, tray: Tray) throws {
        connection = try DBusConnection(bus: .address(address), loop: loop)
        self.loop = loop
        self.tray = tray
        let sender = tray.connection.uniqueName
        connection.subscribe(DBusMatchRule(sender: sender, interface: StatusNotifierItemObject.interface)) { [unowned self] m in
            self.itemSignals.append(m.member ?? "")
        }
        connection.subscribe(DBusMatchRule(sender: sender, interface: DBusMenuObject.interface)) { [unowned self] m in
            self.menuSignals.append(m.member ?? "")
        }
    }

    func call(_ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = []) -> DBusReply {
        var result: DBusReply?
        connection.call(.methodCall(destination: tray.busName, path: path, interface: interface, method: method,
                                    arguments: arguments), timeoutMilliseconds: 3000) { result = $0 }
        _ = loop.run(until: { result != nil }, timeoutMilliseconds: 4000)
        return result ?? .failure(DBusError(name: "test.NoAnswer", message: ""))
    }

    /// `GetAll(org.kde.StatusNotifierItem)`, variants unwrapped.
    func properties() -> [String: DBusValue] {
        guard case .success(let a) = call(StatusNotifierItemObject.path, DBusConnection.propertiesInterface, "GetAll",
                                         [.string(StatusNotifierItemObject.interface)]) else { return [:] }
        return a.first?.dictionary ?? [:]
    }

    /// The tooltip's body text (the 4th member of `(sa(iiay)ss)`).
    func toolTip() -> String {
        guard case .structure(let m)? = properties()["ToolTip"], m.count == 4 else { return "" }
        return m[3].string ?? ""
    }

    /// `GetLayout(0, -1, [])` flattened: every item as (id, label, properties, depth).
    func menu() -> [(id: Int32, label: String, props: [String: DBusValue], depth: Int)] {
        guard case .success(let a) = call(Tray.menuPath, DBusMenuObject.interface, "GetLayout",
                                         [.int32(0), .int32(-1), .strings([])]), a.count == 2 else { return [] }
        var out: [(Int32, String, [String: DBusValue], Int)] = []
        func walk(_ v: DBusValue, _ depth: Int) {
            guard case .structure(let m) = v.unwrapped, m.count == 3 else { return }
            let props = m[1].dictionary ?? [:]
            out.append((Int32(m[0].int ?? -1), props["label"]?.string ?? "", props, depth))
            for child in m[2].array ?? [] { walk(child, depth + 1) }
        }
        walk(a[1], 0)
        return out.map { (id: $0.0, label: $0.1, props: $0.2, depth: $0.3) }
    }

    /// Clicks the item labelled `label` (as the host sees it, `__` for `_`); false if absent.
    @discardableResult
    func click(_ label: String) -> Bool {
        guard let item = menu().first(where: { $0.label == label }) else { return false }
        let reply = call(Tray.menuPath, DBusMenuObject.interface, "Event",
                         [.int32(item.id), .string("clicked"), .variant(.int32(0)), .uint32(0)])
        if case .success = reply { return true }
        return false
    }

    func close() { connection.close() }
}

/// Tray options for a test: the private bus, a private runtime directory, short delays.
func trayOptions(address: String, runtimeDirectory: String?, opener: [String] = ["true"]) -> Tray.Options {
    var o = Tray.Options()
    o.bus = .address(address)
    o.runtimeDirectory = runtimeDirectory
    o.opener = opener
    o.refreshDelayMilliseconds = 20
    o.requestTimeoutMilliseconds = 3000
    return o
}

/// Runs `loop` until `condition` holds, for at most 5 s. Re-checks every 50 ms as well as after
/// each event: a condition that asks the tray over D-Bus runs the loop itself, and what it
/// waits for (a child's file, a reply seen inside that nested run) wakes nothing afterwards.
func eventually(_ loop: EventLoop, _ condition: () -> Bool) -> Bool {
    for _ in 0..<100 {
        if condition() { return true }
        _ = loop.run(until: condition, timeoutMilliseconds: 50)
    }
    return condition()
}
