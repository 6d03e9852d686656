import DBus
import Glibc
import Logging

/// Tells the daemon whether its user's session is the one in front of the seat, from logind
/// (`org.freedesktop.login1` on the system bus): seat0's `ActiveSession` and that session's
/// `User`, read at start and again whenever a seat announces a change (`PropertiesChanged`,
/// which logind sends on every session switch).
///
/// When another user's session becomes active (a fast user switch, `loginctl activate`), udev
/// moves the `/dev/uinput` ACL, but an fd the daemon already holds keeps working: without this
/// watcher, a held button would stay down in the other user's session and taps would type
/// there. The daemon releases everything and drops taps until its user is active again.
///
/// Only a positive answer ("seat0's active session belongs to uid N, not ours") makes the
/// user inactive: no logind, no seat0, no active session, or an unreadable reply all count as
/// active, so a machine without logind (or a user on ssh) keeps typing.
public final class SeatWatcher {
    public static let logindName = SleepWatcher.logindName
    public static let seatPath = "/org/freedesktop/login1/seat/seat0"

    /// False while another user's session is active on seat0.
    public private(set) var isActive = true
    private let connection: DBusConnection
    private let uid: UInt32
    private let onChange: (Bool) -> Void
    private var subscriptions: [DBusConnection.Subscription] = []
    /// Counts reads so an answer that arrives after a newer read started is ignored.
    private var generation = 0
    private let log = LogSetup.logger("daemon")

    /// Subscribes on `connection` (the system bus) and reads the seat now. `onChange(false)`
    /// when another user's session becomes active, `onChange(true)` when ours is back.
    public init(connection: DBusConnection, uid: UInt32 = getuid(), onChange: @escaping (Bool) -> Void) {
        self.connection = connection
        self.uid = uid
        self.onChange = onChange
        let rule = DBusMatchRule(sender: Self.logindName, pathNamespace: "/org/freedesktop/login1/seat",
                                 interface: DBusConnection.propertiesInterface, member: "PropertiesChanged")
        subscriptions.append(connection.watchNameOwner(Self.logindName) { _ in })
        subscriptions.append(connection.subscribe(rule) { [weak self] _ in self?.read() })
        read()
    }

    deinit {
        for s in subscriptions { connection.unsubscribe(s) }
    }

    private func read() {
        generation += 1
        let asked = generation
        connection.getProperty(destination: Self.logindName, path: Self.seatPath, interface: "org.freedesktop.login1.Seat",
                               name: "ActiveSession") { [weak self] result in
            guard let self, asked == self.generation else { return }
            // (so): the session's id and object path; "/" when no session is active.
            guard case .success(.structure(let fields)) = result, fields.count == 2,
                  let path = fields[1].string, path != "/" else { return self.set(true) }
            self.connection.getProperty(destination: Self.logindName, path: path, interface: "org.freedesktop.login1.Session",
                                        name: "User") { [weak self] result in
                guard let self, asked == self.generation else { return }
                // (uo): the session's uid and user object.
                guard case .success(.structure(let user)) = result, let owner = user.first?.int else { return self.set(true) }
                self.set(owner == Int(self.uid))
            }
        }
    }

    private func set(_ active: Bool) {
        guard active != isActive else { return }
        isActive = active
        log.info(active ? "our session is active on seat0 again" : "another user's session is active on seat0")
        onChange(active)
    }
}
