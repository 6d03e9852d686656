import CDBus
import EventLoop
import Glibc

/// A private connection to a message bus, driven by an ``EventLoop``.
///
/// All work happens on the loop's thread: replies, signals and exported-method calls are
/// delivered from the loop's dispatch, never re-entrantly from inside a call that sends.
///
/// ```swift
/// let bus = try DBusConnection(bus: .system, loop: loop)
/// bus.call(.methodCall(destination: "org.bluez", path: "/", interface: BlueZ.objectManager,
///                      method: "GetManagedObjects")) { reply in … }
/// ```
///
/// - Important: Not thread-safe. Call ``close()`` when done (it is also called on deinit).
public final class DBusConnection {
    /// Which bus to connect to.
    public enum Bus: Sendable, Equatable {
        /// The system bus; honours `DBUS_SYSTEM_BUS_ADDRESS`.
        case system
        /// The session bus (`DBUS_SESSION_BUS_ADDRESS`).
        case session
        /// An explicit address such as `unix:path=/tmp/bus`.
        case address(String)
    }

    /// A live signal subscription; pass it to ``DBusConnection/unsubscribe(_:)``.
    public final class Subscription {
        let rule: DBusMatchRule
        let handler: (DBusMessage) -> Void
        fileprivate(set) var active = true
        init(rule: DBusMatchRule, handler: @escaping (DBusMessage) -> Void) { self.rule = rule; self.handler = handler }
    }

    /// Default timeout for method calls, in milliseconds.
    public static let defaultTimeoutMilliseconds = 25_000

    let raw: OpaquePointer
    public let loop: EventLoop
    private let integration: DBusLoopIntegration
    private var subscriptions: [Subscription] = []
    private var ruleCounts: [String: Int] = [:]
    private var nameOwners: [String: String] = [:]
    var exported: [String: DBusObject] = [:]
    private var closed = false

    /// Messages sent so far (calls, replies, signals); tests use it to prove a path is D-Bus free.
    public private(set) var messagesSent = 0

    /// Called once when the connection to the bus is lost (not after ``close()``).
    public var onDisconnected: (() -> Void)?

    /// Connects and registers with the bus (`Hello`). Blocks briefly: start-up only.
    public init(bus: Bus, loop: EventLoop) throws(DBusError) {
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        var conn: OpaquePointer?
        switch bus {
        case .system: conn = dbus_bus_get_private(DBUS_BUS_SYSTEM, &err)
        case .session: conn = dbus_bus_get_private(DBUS_BUS_SESSION, &err)
        case .address(let address):
            conn = dbus_connection_open_private(address, &err)
            if let c = conn, dbus_bus_register(c, &err) == 0 {
                dbus_connection_close(c)
                dbus_connection_unref(c)
                conn = nil
            }
        }
        guard let conn else {
            throw DBusError.take(&err) ?? .failed("cannot connect to the bus")
        }
        // libdbus would otherwise _exit() the process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(conn, 0)
        self.raw = conn
        self.loop = loop
        self.integration = DBusLoopIntegration(loop: loop, connection: conn)
        let ctx = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(conn, dbusConnectionFilter, ctx, nil)
        integration.attach()
    }

    deinit { close() }

    /// This connection's unique bus name (`:1.42`).
    public var uniqueName: String { dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? "" }

    /// Whether the connection is still open.
    public var isConnected: Bool { !closed && dbus_connection_get_is_connected(raw) != 0 }

    /// Flushes, then closes the connection and removes it from the loop. Replies still
    /// outstanding are dropped: their handlers never run.
    public func close() {
        guard !closed else { return }
        closed = true
        if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
        for path in exported.keys { dbus_connection_unregister_object_path(raw, path) }
        exported.removeAll()
        let ctx = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_remove_filter(raw, dbusConnectionFilter, ctx)
        integration.detach()
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    // MARK: Sending

    /// Sends a message without waiting for any reply.
    public func send(_ message: DBusMessage) {
        guard !closed else { return }
        messagesSent += 1
        _ = dbus_connection_send(raw, message.raw, nil)
    }

    /// Sends a method call; `reply` runs later on the loop with the reply or error
    /// (including `NoReply` on timeout and `Disconnected`). Never runs synchronously.
    public func call(_ message: DBusMessage, timeoutMilliseconds: Int = DBusConnection.defaultTimeoutMilliseconds,
                     reply: @escaping (DBusReply) -> Void) {
        guard !closed else { loop.post { reply(.failure(.disconnected)) }; return }
        var pending: OpaquePointer?
        messagesSent += 1
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Int32(clamping: timeoutMilliseconds)) != 0,
              let pending else {
            loop.post { reply(.failure(.disconnected)) }
            return
        }
        let box = Unmanaged.passRetained(PendingReply(reply)).toOpaque()
        dbus_pending_call_set_notify(pending, { p, d in
            guard let p, let d else { return }
            let handler = Unmanaged<PendingReply>.fromOpaque(d).takeUnretainedValue()
            guard let m = dbus_pending_call_steal_reply(p) else { return }
            let msg = DBusMessage(taking: m)
            handler.deliver(msg.asError.map { .failure($0) } ?? .success(msg.arguments))
        }, box, { d in
            if let d { Unmanaged<PendingReply>.fromOpaque(d).release() }
        })
        // The reply may have been completed already (set_notify then calls it at once).
        dbus_pending_call_unref(pending)
        integration.scheduleDispatch()
    }

    /// Sends a method call and waits for its reply, bypassing the loop.
    ///
    /// - warning: Blocks. Only for start-up and one-shot command-line tools.
    public func callBlocking(_ message: DBusMessage,
                             timeoutMilliseconds: Int = DBusConnection.defaultTimeoutMilliseconds) throws(DBusError) -> [DBusValue] {
        guard !closed else { throw .disconnected }
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        messagesSent += 1
        guard let m = dbus_connection_send_with_reply_and_block(raw, message.raw, Int32(clamping: timeoutMilliseconds), &err) else {
            throw DBusError.take(&err) ?? .failed("no reply")
        }
        integration.scheduleDispatch()
        return DBusMessage(taking: m).arguments
    }

    // MARK: Signals

    /// Calls `handler` for every signal matching `rule`. Adds the rule to the bus without
    /// waiting for the bus's answer.
    @discardableResult
    public func subscribe(_ rule: DBusMatchRule, handler: @escaping (DBusMessage) -> Void) -> Subscription {
        let s = Subscription(rule: rule, handler: handler)
        subscriptions.append(s)
        let text = rule.ruleString
        ruleCounts[text, default: 0] += 1
        if ruleCounts[text] == 1, !closed { dbus_bus_add_match(raw, text, nil) }
        return s
    }

    /// Stops a subscription; the bus rule goes when its last subscriber does.
    public func unsubscribe(_ subscription: Subscription) {
        guard subscription.active else { return }
        subscription.active = false
        subscriptions.removeAll { $0 === subscription }
        let text = subscription.rule.ruleString
        ruleCounts[text, default: 1] -= 1
        if ruleCounts[text] == 0 {
            ruleCounts[text] = nil
            if !closed { dbus_bus_remove_match(raw, text, nil) }
        }
    }

    /// Emits a signal from `path`.
    /// Emits a signal from `path`: broadcast, or only to `destination` (a unique name).
    public func emitSignal(path: String, interface: String, name: String, arguments: [DBusValue] = [],
                           destination: String? = nil) {
        send(.signal(path: path, interface: interface, name: name, arguments: arguments, destination: destination))
    }

    fileprivate func filter(_ raw: OpaquePointer) {
        let message = DBusMessage(retaining: raw)
        if message.isSignal(interface: "org.freedesktop.DBus.Local", member: "Disconnected") {
            let handler = onDisconnected
            onDisconnected = nil
            handler?()
            return
        }
        guard message.kind == .signal else { return }
        // Copy: handlers may subscribe or unsubscribe.
        for s in subscriptions where s.active && s.rule.matches(message, owner: { self.nameOwners[$0] }) {
            s.handler(message)
        }
    }

    // MARK: Names

    /// Tracks the owner of a well-known name: `handler` gets the current owner's unique name
    /// (nil when nobody owns it) once at first, then on every change. Signals whose rule names
    /// this well-known sender are matched against the tracked owner.
    @discardableResult
    public func watchNameOwner(_ name: String, handler: @escaping (String?) -> Void) -> Subscription {
        let sub = subscribe(DBusMatchRule(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: name)) { [weak self] msg in
            let args = msg.arguments
            guard args.count == 3, let new = args[2].string else { return }
            self?.setOwner(name, new.isEmpty ? nil : new, handler)
        }
        call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                         interface: "org.freedesktop.DBus", method: "GetNameOwner", arguments: [.string(name)])) { [weak self] r in
            guard sub.active else { return }
            switch r {
            case .success(let args): self?.setOwner(name, args.first?.string, handler)
            case .failure: self?.setOwner(name, nil, handler)
            }
        }
        return sub
    }

    private func setOwner(_ name: String, _ owner: String?, _ handler: (String?) -> Void) {
        nameOwners[name] = owner
        handler(owner)
    }

    /// The tracked owner of `name`, if tracked and owned.
    public func owner(of name: String) -> String? { nameOwners[name] }

    /// Requests a well-known name (not queued). Blocks: start-up only.
    public func requestName(_ name: String) throws(DBusError) {
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        let r = dbus_bus_request_name(raw, name, UInt32(CDBUS_NAME_FLAG_DO_NOT_QUEUE), &err)
        if let e = DBusError.take(&err) { throw e }
        guard r == CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER else {
            throw DBusError(name: "org.freedesktop.DBus.Error.AddressInUse", message: "\(name) is owned by someone else")
        }
    }
}

/// The connection's one message filter (a named function, so add and remove see the same pointer).
private func dbusConnectionFilter(_ c: OpaquePointer?, _ msg: OpaquePointer?, _ d: UnsafeMutableRawPointer?) -> DBusHandlerResult {
    guard let msg, let d else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    Unmanaged<DBusConnection>.fromOpaque(d).takeUnretainedValue().filter(msg)
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

/// Context box for one pending call's reply handler.
private final class PendingReply {
    var handler: ((DBusReply) -> Void)?
    init(_ handler: @escaping (DBusReply) -> Void) { self.handler = handler }
    func deliver(_ r: DBusReply) {
        let h = handler
        handler = nil
        h?(r)
    }
}
