/// One D-Bus value, knowing its own type signature.
///
/// Containers nest: an `a{sv}` options dictionary is
/// `.array(elementSignature: "{sv}", [.dictEntry(.string("type"), .variant(.string("request")))])`,
/// or more simply ``DBusValue/dictionary(_:)``. Byte arrays have their own case, ``bytes(_:)``,
/// because they carry GATT values and are read in one piece; an `ay` read from a message is
/// always `.bytes`.
///
/// - Important: ``unixFD(_:)`` read from a message is a descriptor *owned by the reader*
///   (libdbus dup()s it); close it or hand it on. Appending one dup()s it again, so the
///   caller keeps ownership of what it appends.
public indirect enum DBusValue: Sendable, Hashable, CustomStringConvertible {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(Int32)
    /// `ay`.
    case bytes([UInt8])
    /// `a<elementSignature>`; every element must have that signature.
    case array(elementSignature: String, [DBusValue])
    /// `{kv}`; only valid as an array element.
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's complete D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictEntry(let k, let v): "{" + k.signature + v.signature + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// An `a{sv}` dictionary (keys sorted, so the encoding is deterministic).
    public static func dictionary(_ entries: [String: DBusValue]) -> DBusValue {
        .array(elementSignature: "{sv}", entries.sorted { $0.key < $1.key }.map {
            .dictEntry(.string($0.key), .variant($0.value))
        })
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map { .string($0) })
    }

    // MARK: Accessors (nil when the value has another type; variants are looked through)

    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = unwrapped { return b }
        return nil
    }

    /// Any integer type, widened.
    public var int: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        case .unixFD(let v): Int(v)
        default: nil
        }
    }

    /// `ay` (either representation).
    public var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let b): return b
        case .array("y", let items): return items.compactMap { if case .byte(let b) = $0 { b } else { nil } }
        default: return nil
        }
    }

    /// The elements of any array (bytes become `.byte` elements).
    public var array: [DBusValue]? {
        switch unwrapped {
        case .array(_, let items): items
        case .bytes(let b): b.map { .byte($0) }
        default: nil
        }
    }

    /// Strings of an `as`/`ao` array.
    public var stringArray: [String]? { array?.compactMap(\.string) }

    /// A dictionary with string or object-path keys (`a{sv}`, `a{oa{sa{sv}}}`, …); variant
    /// values are unwrapped.
    public var dictionary: [String: DBusValue]? {
        guard case .array(_, let items) = unwrapped else { return nil }
        var out: [String: DBusValue] = [:]
        for item in items {
            guard case .dictEntry(let k, let v) = item, let key = k.string else { return nil }
            out[key] = v.unwrapped
        }
        return out
    }

    public var description: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .objectPath(let s): "@\(s)"
        case .bytes(let b): "[" + b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ") + "]"
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictEntry(let k, let v): "\(k): \(v)"
        case .structure(let m): "(" + m.map(\.description).joined(separator: ", ") + ")"
        case .variant(let v): "<\(v)>"
        case .byte(let v): "\(v)"
        case .bool(let v): "\(v)"
        case .int16(let v): "\(v)"
        case .uint16(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .signature(let s): "g\"\(s)\""
        case .unixFD(let fd): "fd \(fd)"
        }
    }
}
