import DBus
import KeyboardLayout
import Logging
import TapBLE

/// KDE Plasma's active keyboard layout, from what KWin exposes on the session bus:
/// `org.kde.keyboard` at `/Layouts`, interface `org.kde.KeyboardLayouts` (`getLayoutsList()`:
/// `a(sss)` short name, variant, display name; `getLayout()`: the active index; signals
/// `layoutChanged(u)` and `layoutListChanged()`).
///
/// Reads both at start and whenever KWin signals a change or (re)appears on the bus; reports
/// each new layout once. On Plasma's X11 session the X11 source reports the same layout first.
public final class KDELayoutWatcher {
    public static let busName = "org.kde.keyboard"
    public static let path = "/Layouts"
    public static let interface = "org.kde.KeyboardLayouts"

    /// The last layout reported; nil before the first.
    public private(set) var current: LayoutReport?
    private let connection: DBusConnection
    private let onChange: (LayoutReport) -> Void
    private var subscriptions: [DBusConnection.Subscription] = []
    private var layouts: [LayoutNames] = []
    /// Bumped by every read, so answers to an older read are dropped.
    private var generation = 0
    private let log = LogSetup.logger("focus")

    /// Subscribes on `connection` (the session bus) and reads the current layout.
    public init(connection: DBusConnection, onChange: @escaping (LayoutReport) -> Void) {
        self.connection = connection
        self.onChange = onChange
        subscriptions.append(connection.watchNameOwner(Self.busName) { [weak self] owner in
            if owner != nil { self?.read() }
        })
        for member in ["layoutChanged", "layoutListChanged"] {
            let rule = DBusMatchRule(sender: Self.busName, path: Self.path, interface: Self.interface, member: member)
            subscriptions.append(connection.subscribe(rule) { [weak self] _ in self?.read() })
        }
        read()
    }

    deinit {
        for s in subscriptions { connection.unsubscribe(s) }
    }

    /// The list, then the index (the index means nothing without the list it indexes).
    private func read() {
        generation += 1
        let current = generation
        connection.call(.methodCall(destination: Self.busName, path: Self.path, interface: Self.interface,
                                    method: "getLayoutsList")) { [weak self] result in
            guard let self, current == self.generation else { return }
            guard case .success(let values) = result, let list = values.first?.array else {
                self.log.debug("kde: no keyboard layouts (\(result))")
                return
            }
            self.layouts = list.compactMap(Self.names)
            self.connection.call(.methodCall(destination: Self.busName, path: Self.path, interface: Self.interface,
                                             method: "getLayout")) { [weak self] result in
                guard let self, current == self.generation,
                      case .success(let values) = result, let index = values.first?.int else { return }
                self.activeLayout(index)
            }
        }
    }

    private func activeLayout(_ index: Int) {
        guard layouts.indices.contains(index) else { return }
        let report = LayoutReport(.names(layouts[index]), origin: "kde")
        guard report != current else { return }
        current = report
        log.info("kde: keyboard layout \(report.summary)")
        onChange(report)
    }

    /// One `(sss)` entry: short name and variant, as XKB names; nil when they are not names.
    static func names(_ entry: DBusValue) -> LayoutNames? {
        guard case .structure(let fields) = entry, fields.count >= 2,
              let layout = fields[0].string, let variant = fields[1].string,
              let parsed = LayoutNames(spelling: layout), !parsed.layout.contains(",") else { return nil }
        return LayoutNames(spelling: variant.isEmpty ? layout : "\(layout)(\(variant))") ?? parsed
    }
}
