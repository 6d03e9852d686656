import DBus
import Glibc
import Logging
import TapBLE

/// Tells the daemon when the machine is about to suspend, from logind's
/// `org.freedesktop.login1.Manager.PrepareForSleep(b start)` signal on the system bus.
///
/// On `start == true` the daemon releases every key and button: a key held across a
/// suspend would otherwise stay down in the kernel until the next event, typing into
/// whatever has focus after resume.
///
/// The watcher holds a *delay* inhibitor lock (`Inhibit("sleep", ..., "delay")`) so that logind
/// waits for that release: the lock is closed right after `onSleep(true)` returns, and taken
/// again after resume. Without it the release raced the kernel's suspend (the systemd e2e guest
/// measured 0.23 s to spare under load). Without logind, or when the lock is refused, the
/// signal alone still releases.
public final class SleepWatcher {
    public static let logindName = "org.freedesktop.login1"
    public static let managerInterface = "org.freedesktop.login1.Manager"
    static let managerPath = "/org/freedesktop/login1"

    private let connection: DBusConnection
    private var subscriptions: [DBusConnection.Subscription] = []
    /// The inhibitor lock's fd, -1 when none is held.
    private(set) var inhibitor: Int32 = -1
    private let log = LogSetup.logger("daemon")

    /// Subscribes on `connection` (the system bus) and takes the delay lock. `onSleep(true)`
    /// before sleeping, `onSleep(false)` after resuming.
    public init(connection: DBusConnection, onSleep: @escaping (Bool) -> Void) {
        self.connection = connection
        let rule = DBusMatchRule(sender: Self.logindName, path: Self.managerPath,
                                 interface: Self.managerInterface, member: "PrepareForSleep")
        // The rule names logind by its well-known name; the connection matches it against
        // the owner it tracks, so a look-alike signal from another peer is ignored.
        subscriptions.append(connection.watchNameOwner(Self.logindName) { _ in })
        subscriptions.append(connection.subscribe(rule) { [weak self] message in
            guard let start = message.arguments.first?.bool else { return }
            onSleep(start)
            if start { self?.dropInhibitor() } else { self?.takeInhibitor() }
        })
        takeInhibitor()
    }

    deinit {
        for s in subscriptions { connection.unsubscribe(s) }
        dropInhibitor()
    }

    private func takeInhibitor() {
        let inhibit = DBusMessage.methodCall(destination: Self.logindName, path: Self.managerPath, interface: Self.managerInterface,
                                             method: "Inhibit", arguments: [.string("sleep"), .string("TapUinput"),
                                                                            .string("Release held keys and buttons"), .string("delay")])
        connection.call(inhibit) { [weak self] result in
            guard case .success(let args) = result, case .unixFD(let fd)? = args.first?.unwrapped, fd >= 0 else {
                if case .failure(let error) = result { self?.log.debug("no sleep delay lock from logind: \(error)") }
                return
            }
            // The watcher may be gone (bus lost) or hold a lock already (a resume raced the reply).
            guard let self, self.inhibitor < 0 else { close(fd); return }
            self.inhibitor = fd
        }
    }

    private func dropInhibitor() {
        guard inhibitor >= 0 else { return }
        close(inhibitor)
        inhibitor = -1
    }
}
