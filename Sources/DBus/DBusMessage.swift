import CDBus
import Glibc

/// An owned reference to a libdbus `DBusMessage`.
///
/// Arguments are written and read through `DBusMessageIter` (libdbus's variadic helpers are
/// not callable from Swift). Header accessors return nil where the header field is absent.
public final class DBusMessage: @unchecked Sendable {
    /// The message type.
    public enum Kind: Sendable { case methodCall, methodReturn, error, signal, other }

    let raw: OpaquePointer

    /// Takes over one reference to `raw`.
    init(taking raw: OpaquePointer) { self.raw = raw }
    /// Adds a reference to `raw`.
    init(retaining raw: OpaquePointer) { self.raw = raw; dbus_message_ref(raw) }

    deinit { dbus_message_unref(raw) }

    /// A method call to `destination` (nil: no destination, for peer-to-peer use).
    public static func methodCall(destination: String?, path: String, interface: String?, method: String,
                                  arguments: [DBusValue] = []) -> DBusMessage {
        guard let m = dbus_message_new_method_call(destination, path, interface, method) else { oom() }
        let msg = DBusMessage(taking: m)
        msg.append(arguments)
        return msg
    }

    /// The bus daemon's `NameHasOwner(name)`: whether some connection owns `name` now.
    public static func nameHasOwner(_ name: String) -> DBusMessage {
        methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                   method: "NameHasOwner", arguments: [.string(name)])
    }

    /// A signal emitted from `path`.
    /// A signal; with `destination`, a unicast signal the bus delivers to that peer only.
    public static func signal(path: String, interface: String, name: String, arguments: [DBusValue] = [],
                              destination: String? = nil) -> DBusMessage {
        guard let m = dbus_message_new_signal(path, interface, name) else { oom() }
        if let destination { dbus_message_set_destination(m, destination) }
        let msg = DBusMessage(taking: m)
        msg.append(arguments)
        return msg
    }

    /// The successful reply to this method call.
    public func makeReturn(_ arguments: [DBusValue] = []) -> DBusMessage {
        guard let m = dbus_message_new_method_return(raw) else { oom() }
        let msg = DBusMessage(taking: m)
        msg.append(arguments)
        return msg
    }

    /// The error reply to this method call.
    public func makeError(_ error: DBusError) -> DBusMessage {
        guard let m = dbus_message_new_error(raw, error.name, error.message) else { oom() }
        return DBusMessage(taking: m)
    }

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: .error
        case CDBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .other
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    public var serial: UInt32 { dbus_message_get_serial(raw) }

    /// Compares the interface and member without building Swift strings (hot path).
    func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }

    /// Whether the first argument is a string/object path equal to `value`, without decoding the rest.
    func firstArgumentEquals(_ value: String) -> Bool {
        var it = DBusMessageIter()
        guard dbus_message_iter_init(raw, &it) != 0 else { return false }
        let t = dbus_message_iter_get_arg_type(&it)
        guard t == CDBUS_TYPE_STRING || t == CDBUS_TYPE_OBJECT_PATH else { return false }
        var p: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&it, &p)
        guard let p else { return false }
        return value.withCString { strcmp($0, p) == 0 }
    }

    /// Header comparisons without building Swift strings (the signal filter's hot path).
    func hasPath(_ path: String) -> Bool { dbus_message_has_path(raw, path) != 0 }
    func hasSender(_ sender: String) -> Bool { dbus_message_has_sender(raw, sender) != 0 }

    /// Whether the object path is `namespace` itself or lies below it.
    func isInPathNamespace(_ namespace: String) -> Bool {
        guard let p = dbus_message_get_path(raw) else { return false }
        return namespace.withCString { ns in
            let n = strlen(ns)
            return strncmp(p, ns, n) == 0 && (p[n] == 0 || p[n] == 0x2F)   // "/"
        }
    }

    /// The StartNotify hot path: for a `PropertiesChanged` signal of `interface` whose only
    /// change is `Value` (a byte array) and that invalidates nothing, calls `body` with the
    /// bytes straight from libdbus's buffer (valid only during the call) and returns true.
    /// Any other message returns false and `body` is not called: it takes the general path.
    public func withChangedByteValue(of interface: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard dbus_message_has_signature(raw, "sa{sv}as") != 0 else { return false }
        var args = DBusMessageIter()
        guard dbus_message_iter_init(raw, &args) != 0 else { return false }
        var name: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&args, &name)
        guard let name, interface.withCString({ strcmp($0, name) == 0 }) else { return false }
        guard dbus_message_iter_next(&args) != 0 else { return false }
        var entries = DBusMessageIter(), entry = DBusMessageIter(), variant = DBusMessageIter(), array = DBusMessageIter()
        dbus_message_iter_recurse(&args, &entries)
        guard dbus_message_iter_get_arg_type(&entries) == CDBUS_TYPE_DICT_ENTRY else { return false }
        dbus_message_iter_recurse(&entries, &entry)
        var key: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&entry, &key)
        guard let key, strcmp(key, "Value") == 0, dbus_message_iter_next(&entry) != 0 else { return false }
        dbus_message_iter_recurse(&entry, &variant)
        guard dbus_message_iter_get_arg_type(&variant) == CDBUS_TYPE_ARRAY,
              dbus_message_iter_get_element_type(&variant) == CDBUS_TYPE_BYTE else { return false }
        // Only `Value` changed, and nothing is invalidated.
        guard dbus_message_iter_next(&entries) == 0, dbus_message_iter_next(&args) != 0 else { return false }
        var invalidated = DBusMessageIter()
        dbus_message_iter_recurse(&args, &invalidated)
        guard dbus_message_iter_get_arg_type(&invalidated) == CDBUS_TYPE_INVALID else { return false }
        dbus_message_iter_recurse(&variant, &array)
        var bytes: UnsafePointer<UInt8>?
        var count: Int32 = 0
        dbus_message_iter_get_fixed_array(&array, &bytes, &count)
        body(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: Int(max(count, 0))))
        return true
    }

    /// All arguments, decoded. File descriptors in them are new and owned by the caller.
    public var arguments: [DBusValue] {
        var it = DBusMessageIter()
        guard dbus_message_iter_init(raw, &it) != 0 else { return [] }
        return DBusMessage.readAll(&it)
    }

    /// The error carried by an error message.
    var asError: DBusError? {
        guard kind == .error else { return nil }
        let text = arguments.first?.string ?? ""
        return DBusError(name: errorName ?? "org.freedesktop.DBus.Error.Failed", message: text)
    }

    /// Appends `values` in order.
    public func append(_ values: [DBusValue]) {
        guard !values.isEmpty else { return }
        var it = DBusMessageIter()
        dbus_message_iter_init_append(raw, &it)
        for v in values { DBusMessage.write(v, to: &it) }
    }

    // MARK: Encoding

    private static func write(_ value: DBusValue, to it: inout DBusMessageIter) {
        func basic<T: BitwiseCopyable>(_ type: Int32, _ v: T) {
            var v = v
            guard dbus_message_iter_append_basic(&it, type, &v) != 0 else { oom() }
        }
        func str(_ type: Int32, _ s: String) {
            s.withCString { cs in
                var p: UnsafePointer<CChar>? = cs
                guard dbus_message_iter_append_basic(&it, type, &p) != 0 else { oom() }
            }
        }
        func container(_ type: Int32, _ contained: String?, _ body: (inout DBusMessageIter) -> Void) {
            var sub = DBusMessageIter()
            let opened: dbus_bool_t
            if let contained {
                opened = contained.withCString { dbus_message_iter_open_container(&it, type, $0, &sub) }
            } else {
                opened = dbus_message_iter_open_container(&it, type, nil, &sub)
            }
            guard opened != 0 else { oom() }
            body(&sub)
            guard dbus_message_iter_close_container(&it, &sub) != 0 else { oom() }
        }
        switch value {
        case .byte(let v): basic(CDBUS_TYPE_BYTE, v)
        case .bool(let v): basic(CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): basic(CDBUS_TYPE_INT16, v)
        case .uint16(let v): basic(CDBUS_TYPE_UINT16, v)
        case .int32(let v): basic(CDBUS_TYPE_INT32, v)
        case .uint32(let v): basic(CDBUS_TYPE_UINT32, v)
        case .int64(let v): basic(CDBUS_TYPE_INT64, v)
        case .uint64(let v): basic(CDBUS_TYPE_UINT64, v)
        case .double(let v): basic(CDBUS_TYPE_DOUBLE, v)
        case .unixFD(let v): basic(CDBUS_TYPE_UNIX_FD, v)
        case .string(let s): str(CDBUS_TYPE_STRING, s)
        case .objectPath(let s): str(CDBUS_TYPE_OBJECT_PATH, s)
        case .signature(let s): str(CDBUS_TYPE_SIGNATURE, s)
        case .bytes(let b):
            container(CDBUS_TYPE_ARRAY, "y") { sub in
                b.withUnsafeBufferPointer { buf in
                    var p = buf.baseAddress
                    // A valid pointer is required even for zero elements.
                    if p == nil { var zero: UInt8 = 0; withUnsafePointer(to: &zero) { z in
                        var zp: UnsafePointer<UInt8>? = z
                        _ = dbus_message_iter_append_fixed_array(&sub, CDBUS_TYPE_BYTE, &zp, 0)
                    }; return }
                    guard dbus_message_iter_append_fixed_array(&sub, CDBUS_TYPE_BYTE, &p, Int32(buf.count)) != 0 else { oom() }
                }
            }
        case .array(let element, let items):
            container(CDBUS_TYPE_ARRAY, element) { sub in for i in items { write(i, to: &sub) } }
        case .dictEntry(let k, let v):
            container(CDBUS_TYPE_DICT_ENTRY, nil) { sub in write(k, to: &sub); write(v, to: &sub) }
        case .structure(let members):
            container(CDBUS_TYPE_STRUCT, nil) { sub in for m in members { write(m, to: &sub) } }
        case .variant(let inner):
            container(CDBUS_TYPE_VARIANT, inner.signature) { sub in write(inner, to: &sub) }
        }
    }

    // MARK: Decoding

    private static func readAll(_ it: inout DBusMessageIter) -> [DBusValue] {
        var out: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&it) != CDBUS_TYPE_INVALID {
            if let v = read(&it) { out.append(v) }
            dbus_message_iter_next(&it)
        }
        return out
    }

    private static func read(_ it: inout DBusMessageIter) -> DBusValue? {
        func basic<T: BitwiseCopyable>(_ zero: T) -> T {
            var v = zero
            dbus_message_iter_get_basic(&it, &v)
            return v
        }
        func str() -> String {
            var p: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&it, &p)
            return p.map { String(cString: $0) } ?? ""
        }
        let type = dbus_message_iter_get_arg_type(&it)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .bool(basic(dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(str())
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(str())
        case CDBUS_TYPE_SIGNATURE: return .signature(str())
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&it, &sub)
            return read(&sub).map { .variant($0) }
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&it, &sub)
            return .structure(readAll(&sub))
        case CDBUS_TYPE_DICT_ENTRY:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&it, &sub)
            let kv = readAll(&sub)
            guard kv.count == 2 else { return nil }
            return .dictEntry(kv[0], kv[1])
        case CDBUS_TYPE_ARRAY:
            let element = dbus_message_iter_get_element_type(&it)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&it, &sub)
            if element == CDBUS_TYPE_BYTE {
                var p: UnsafePointer<UInt8>?
                var n: Int32 = 0
                dbus_message_iter_get_fixed_array(&sub, &p, &n)
                guard let p, n > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeBufferPointer(start: p, count: Int(n))))
            }
            var elementSignature = ""
            if let sig = dbus_message_iter_get_signature(&it) {
                elementSignature = String(String(cString: sig).dropFirst())
                dbus_free(sig)
            }
            return .array(elementSignature: elementSignature, readAll(&sub))
        default:
            return nil
        }
    }
}

/// libdbus returns NULL only when out of memory; there is nothing sensible to do then.
func oom() -> Never { fatalError("libdbus: out of memory") }
