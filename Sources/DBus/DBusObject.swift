import CDBus

/// An object this process exports on a bus: interfaces with methods, signals and properties.
///
/// `org.freedesktop.DBus.Introspectable` and `org.freedesktop.DBus.Properties` (Get, GetAll,
/// Set, and the PropertiesChanged signal via ``DBusConnection/emitPropertiesChanged(path:interface:changed:)``)
/// are provided. Export it with ``DBusConnection/export(_:)``.
///
/// ```swift
/// let obj = DBusObject(path: "/org/example/Agent")
/// obj.add(DBusInterface(name: "org.example.Agent1", methods: [
///     "Ping": DBusMethod(in: "s", out: "s") { call in call.reply([call.arguments[0]]) },
/// ]))
/// try bus.export(obj)
/// ```
public final class DBusObject {
    public let path: String
    public private(set) var interfaces: [String: DBusInterface] = [:]

    public init(path: String) { self.path = path }

    /// Adds or replaces an interface.
    public func add(_ interface: DBusInterface) { interfaces[interface.name] = interface }

    /// Introspection XML for this object.
    var introspectionXML: String {
        var x = "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" "
        x += "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>\n"
        x += "<interface name=\"org.freedesktop.DBus.Introspectable\"><method name=\"Introspect\"><arg name=\"xml\" type=\"s\" direction=\"out\"/></method></interface>\n"
        x += "<interface name=\"org.freedesktop.DBus.Properties\">"
        x += "<method name=\"Get\"><arg type=\"s\" direction=\"in\"/><arg type=\"s\" direction=\"in\"/><arg type=\"v\" direction=\"out\"/></method>"
        x += "<method name=\"GetAll\"><arg type=\"s\" direction=\"in\"/><arg type=\"a{sv}\" direction=\"out\"/></method>"
        x += "<method name=\"Set\"><arg type=\"s\" direction=\"in\"/><arg type=\"s\" direction=\"in\"/><arg type=\"v\" direction=\"in\"/></method>"
        x += "<signal name=\"PropertiesChanged\"><arg type=\"s\"/><arg type=\"a{sv}\"/><arg type=\"as\"/></signal></interface>\n"
        for i in interfaces.values.sorted(by: { $0.name < $1.name }) {
            x += "<interface name=\"\(i.name)\">"
            for (name, m) in i.methods.sorted(by: { $0.key < $1.key }) {
                x += "<method name=\"\(name)\">"
                for t in splitSignature(m.inSignature) { x += "<arg type=\"\(t)\" direction=\"in\"/>" }
                for t in splitSignature(m.outSignature) { x += "<arg type=\"\(t)\" direction=\"out\"/>" }
                x += "</method>"
            }
            for (name, sig) in i.signals.sorted(by: { $0.key < $1.key }) {
                x += "<signal name=\"\(name)\">" + splitSignature(sig).map { "<arg type=\"\($0)\"/>" }.joined() + "</signal>"
            }
            for (name, p) in i.properties.sorted(by: { $0.key < $1.key }) {
                x += "<property name=\"\(name)\" type=\"\(p.signature)\" access=\"\(p.set == nil ? "read" : "readwrite")\"/>"
            }
            x += "</interface>\n"
        }
        return x + "</node>\n"
    }

    /// Handles a method call addressed to this object; returns false if no such method.
    func handle(_ message: DBusMessage, on connection: DBusConnection) -> Bool {
        guard let member = message.member else { return false }
        let iface = message.interface
        let call = DBusMethodCall(message: message, connection: connection)
        switch (iface, member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            call.reply([.string(introspectionXML)])
            return true
        case ("org.freedesktop.DBus.Properties", "Get"):
            let a = call.arguments
            guard a.count == 2, let i = a[0].string, let n = a[1].string else { call.fail(.invalidArgs); return true }
            guard let p = interfaces[i]?.properties[n] else { call.fail(.unknownProperty(n)); return true }
            call.reply([.variant(p.get())])
            return true
        case ("org.freedesktop.DBus.Properties", "GetAll"):
            guard let i = call.arguments.first?.string else { call.fail(.invalidArgs); return true }
            let props = interfaces[i]?.properties ?? [:]
            call.reply([.dictionary(props.mapValues { $0.get() })])
            return true
        case ("org.freedesktop.DBus.Properties", "Set"):
            let a = call.arguments
            guard a.count == 3, let i = a[0].string, let n = a[1].string else { call.fail(.invalidArgs); return true }
            guard let p = interfaces[i]?.properties[n] else { call.fail(.unknownProperty(n)); return true }
            guard let set = p.set else {
                call.fail(DBusError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(n) is read-only"))
                return true
            }
            let value = a[2].unwrapped
            guard value.signature == p.signature else { call.fail(.invalidArgs); return true }
            do {
                try set(value)
                call.reply([])
                connection.emitPropertiesChanged(path: path, interface: i, changed: [n: value])
            } catch let e as DBusError { call.fail(e) } catch { call.fail(.failed("\(error)")) }
            return true
        default:
            let candidates = iface.map { interfaces[$0].map { [$0] } ?? [] } ?? Array(interfaces.values)
            guard let m = candidates.lazy.compactMap({ $0.methods[member] }).first else { return false }
            guard message.signature == m.inSignature else {
                call.fail(DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                    message: "expected signature '\(m.inSignature)', got '\(message.signature)'"))
                return true
            }
            m.handler(call)
            return true
        }
    }
}

/// One exported interface.
public struct DBusInterface {
    public var name: String
    public var methods: [String: DBusMethod]
    public var properties: [String: DBusProperty]
    /// Signal name -> argument signature (for introspection).
    public var signals: [String: String]

    public init(name: String, methods: [String: DBusMethod] = [:], properties: [String: DBusProperty] = [:],
                signals: [String: String] = [:]) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// An exported method. The handler must eventually call ``DBusMethodCall/reply(_:)`` or
/// ``DBusMethodCall/fail(_:)`` exactly once (it may do so later, e.g. for an agent prompt).
public struct DBusMethod {
    public var inSignature: String
    public var outSignature: String
    public var handler: (DBusMethodCall) -> Void

    public init(in inSignature: String = "", out outSignature: String = "", handler: @escaping (DBusMethodCall) -> Void) {
        self.inSignature = inSignature
        self.outSignature = outSignature
        self.handler = handler
    }
}

/// An exported property; `set` nil means read-only.
public struct DBusProperty {
    public var signature: String
    public var get: () -> DBusValue
    public var set: ((DBusValue) throws -> Void)?

    public init(signature: String, get: @escaping () -> DBusValue, set: ((DBusValue) throws -> Void)? = nil) {
        self.signature = signature
        self.get = get
        self.set = set
    }
}

/// An incoming method call awaiting its answer.
public final class DBusMethodCall {
    public let message: DBusMessage
    public let arguments: [DBusValue]
    private weak var connection: DBusConnection?
    private var answered = false

    init(message: DBusMessage, connection: DBusConnection) {
        self.message = message
        self.arguments = message.arguments
        self.connection = connection
    }

    /// The caller's unique name.
    public var sender: String? { message.sender }

    /// Sends the successful reply (ignored after the first answer).
    public func reply(_ values: [DBusValue]) {
        guard !answered else { return }
        answered = true
        if dbus_message_get_no_reply(message.raw) == 0 { connection?.send(message.makeReturn(values)) }
    }

    /// Sends an error reply (ignored after the first answer).
    public func fail(_ error: DBusError) {
        guard !answered else { return }
        answered = true
        if dbus_message_get_no_reply(message.raw) == 0 { connection?.send(message.makeError(error)) }
    }
}

extension DBusError {
    static let invalidArgs = DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "invalid arguments")
    static func unknownProperty(_ n: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(n)")
    }
}

/// Splits a signature into complete types: `"sa{sv}(ii)"` -> `["s", "a{sv}", "(ii)"]`.
func splitSignature(_ signature: String) -> [String] {
    var out: [String] = []
    var current = ""
    var depth = 0
    for c in signature {
        current.append(c)
        switch c {
        case "(", "{": depth += 1
        case ")", "}": depth -= 1
        default: break
        }
        if depth == 0 && c != "a" { out.append(current); current = "" }
    }
    return out
}

extension DBusConnection {
    /// Exports `object` at its path. Its handlers run on the loop.
    public func export(_ object: DBusObject) throws(DBusError) {
        var vtable = DBusObjectPathVTable()
        vtable.message_function = dbusObjectMessage
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        let ctx = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_try_register_object_path(raw, object.path, &vtable, ctx, &err) != 0 else {
            throw DBusError.take(&err) ?? .failed("cannot export \(object.path)")
        }
        exported[object.path] = object
    }

    /// Stops exporting the object at `path`.
    public func unexport(path: String) {
        guard exported.removeValue(forKey: path) != nil else { return }
        dbus_connection_unregister_object_path(raw, path)
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface` at `path`.
    public func emitPropertiesChanged(path: String, interface: String, changed: [String: DBusValue], invalidated: [String] = []) {
        emitSignal(path: path, interface: "org.freedesktop.DBus.Properties", name: "PropertiesChanged",
                   arguments: [.string(interface), .dictionary(changed), .strings(invalidated)])
    }

    fileprivate func handleObjectCall(_ raw: OpaquePointer) -> Bool {
        let message = DBusMessage(retaining: raw)
        guard message.kind == .methodCall, let path = message.path, let object = exported[path] else { return false }
        return object.handle(message, on: self)
    }
}

private func dbusObjectMessage(_ c: OpaquePointer?, _ msg: OpaquePointer?, _ d: UnsafeMutableRawPointer?) -> DBusHandlerResult {
    guard let msg, let d else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let handled = Unmanaged<DBusConnection>.fromOpaque(d).takeUnretainedValue().handleObjectCall(msg)
    return handled ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
