import DBus
import KeyboardLayout
import Logging
import TapBLE

/// The system's keyboard layout from systemd-localed (`org.freedesktop.locale1` on the system
/// bus: `X11Layout`, `X11Variant`, `X11Options`, what `localectl set-x11-keymap` and desktop
/// installers write). The fallback when no desktop connection reports a layout: the console,
/// and GNOME or KDE on Wayland.
///
/// Reads the properties once at start (bus-activating localed) and again whenever localed
/// announces a change (`PropertiesChanged`); reports only values that name a layout, once each.
public final class LocaledLayoutWatcher {
    public static let busName = "org.freedesktop.locale1"
    public static let path = "/org/freedesktop/locale1"

    /// The last layout reported; nil before the first, or when localed has none.
    public private(set) var current: LayoutReport?
    private let connection: DBusConnection
    private let onChange: (LayoutReport) -> Void
    private var subscriptions: [DBusConnection.Subscription] = []
    private let log = LogSetup.logger("focus")

    /// Subscribes on `connection` (the system bus) and asks for the current values.
    public init(connection: DBusConnection, onChange: @escaping (LayoutReport) -> Void) {
        self.connection = connection
        self.onChange = onChange
        let rule = DBusMatchRule(sender: Self.busName, path: Self.path,
                                 interface: DBusConnection.propertiesInterface, member: "PropertiesChanged")
        // As with logind's signals: the rule names localed by its well-known name, matched
        // against the owner the connection tracks (localed exits when idle and comes back).
        subscriptions.append(connection.watchNameOwner(Self.busName) { _ in })
        subscriptions.append(connection.subscribe(rule) { [weak self] message in
            guard message.arguments.first?.string == Self.busName else { return }
            self?.read()
        })
        read()
    }

    deinit {
        for s in subscriptions { connection.unsubscribe(s) }
    }

    private func read() {
        connection.getAllProperties(destination: Self.busName, path: Self.path, interface: Self.busName) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let properties):
                guard let report = Self.report(properties), report != self.current else { return }
                self.current = report
                self.log.info("localed: keyboard layout \(report.summary)")
                self.onChange(report)
            case .failure(let error):
                self.log.debug("localed: no keyboard layout (\(error))")
            }
        }
    }

    /// localed's layout now, asked with one blocking call (for the command line, never the
    /// daemon's loop); nil when localed cannot be reached or names no layout.
    public static func current(on connection: DBusConnection) -> LayoutReport? {
        let getAll = DBusMessage.methodCall(destination: busName, path: path, interface: DBusConnection.propertiesInterface,
                                            method: "GetAll", arguments: [.string(busName)])
        guard let reply = try? connection.callBlocking(getAll, timeoutMilliseconds: 2000),
              let properties = reply.first?.dictionary else { return nil }
        return report(properties)
    }

    /// The report localed's properties make; nil when `X11Layout` is empty or unreadable.
    static func report(_ properties: [String: DBusValue]) -> LayoutReport? {
        guard let layout = properties["X11Layout"]?.string, !layout.isEmpty,
              let names = LayoutNames(spelling: layout) else { return nil }
        return LayoutReport(.names(LayoutNames(layout: names.layout,
                                               variant: properties["X11Variant"]?.string ?? "",
                                               options: properties["X11Options"]?.string ?? "")),
                            origin: "localed")
    }
}
