import DBus
import Logging
import TapBLE

/// Tells the daemon when the machine is about to suspend, from logind's
/// `org.freedesktop.login1.Manager.PrepareForSleep(b start)` signal on the system bus.
///
/// On `start == true` the daemon releases every key and button: a key held across a
/// suspend would otherwise stay down in the kernel until the next event, typing into
/// whatever has focus after resume. No inhibitor lock is taken: releasing is a few writes
/// done before logind's signal handler returns control to the sleep path.
public final class SleepWatcher {
    public static let logindName = "org.freedesktop.login1"
    public static let managerInterface = "org.freedesktop.login1.Manager"

    private let connection: DBusConnection
    private var subscriptions: [DBusConnection.Subscription] = []

    /// Subscribes on `connection` (the system bus). `onSleep(true)` before sleeping,
    /// `onSleep(false)` after resuming.
    public init(connection: DBusConnection, onSleep: @escaping (Bool) -> Void) {
        self.connection = connection
        let rule = DBusMatchRule(sender: Self.logindName, path: "/org/freedesktop/login1",
                                 interface: Self.managerInterface, member: "PrepareForSleep")
        // The rule names logind by its well-known name; the connection matches it against
        // the owner it tracks, so a look-alike signal from another peer is ignored.
        subscriptions.append(connection.watchNameOwner(Self.logindName) { _ in })
        subscriptions.append(connection.subscribe(rule) { message in
            if let start = message.arguments.first?.bool { onSleep(start) }
        })
    }

    deinit {
        for s in subscriptions { connection.unsubscribe(s) }
    }
}
