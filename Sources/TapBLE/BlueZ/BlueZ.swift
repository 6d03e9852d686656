import DBus
/// Names of BlueZ's D-Bus API (`doc/org.bluez.*.rst`).
public enum BlueZ {
    public static let service = "org.bluez"
    public static let adapter1 = "org.bluez.Adapter1"
    public static let device1 = "org.bluez.Device1"
    public static let battery1 = "org.bluez.Battery1"
    public static let gattService1 = "org.bluez.GattService1"
    public static let gattCharacteristic1 = "org.bluez.GattCharacteristic1"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let properties = "org.freedesktop.DBus.Properties"
}

/// Interface name -> property name -> value, as in `GetManagedObjects`.
public typealias InterfaceProperties = [String: [String: DBusValue]]

/// A view of an `org.bluez.Adapter1` object.
public struct Adapter1: Sendable {
    public let path: String
    public let properties: [String: DBusValue]
    public init(path: String, properties: [String: DBusValue]) { self.path = path; self.properties = properties }
    public var powered: Bool { properties["Powered"]?.bool ?? false }
    public var address: String? { properties["Address"]?.string }

    /// Sets `Powered` through `org.freedesktop.DBus.Properties.Set`.
    public func setPowered(_ on: Bool, on connection: DBusConnection, reply: @escaping (DBusReply) -> Void) {
        connection.call(.methodCall(destination: BlueZ.service, path: path, interface: BlueZ.properties, method: "Set",
                                    arguments: [.string(BlueZ.adapter1), .string("Powered"), .variant(.bool(on))]), reply: reply)
    }
}

/// A view of an `org.bluez.Device1` object.
public struct Device1: Sendable {
    public let path: String
    public let properties: [String: DBusValue]
    public init(path: String, properties: [String: DBusValue]) { self.path = path; self.properties = properties }
    public var address: String? { properties["Address"]?.string }
    public var name: String? { properties["Name"]?.string }
    public var alias: String? { properties["Alias"]?.string }
    public var paired: Bool { properties["Paired"]?.bool ?? false }
    public var connected: Bool { properties["Connected"]?.bool ?? false }
    public var servicesResolved: Bool { properties["ServicesResolved"]?.bool ?? false }
    public var uuids: [String] { properties["UUIDs"]?.stringArray?.map { $0.lowercased() } ?? [] }
    public var rssi: Int? { properties["RSSI"]?.int }
    public var adapter: String? { properties["Adapter"]?.string }
    public var bonded: Bool { properties["Bonded"]?.bool ?? paired }
    public var trusted: Bool { properties["Trusted"]?.bool ?? false }

    /// Whether this is a TAP: it offers the TAP service, or (when BlueZ has not cached the
    /// service list yet) its default name starts with "Tap".
    public var isTap: Bool {
        if uuids.contains(TapUUID.tapService) { return true }
        return [name, alias].contains { $0?.hasPrefix("Tap") == true }
    }

    /// `Connect()`; BlueZ answers once the link is up (often after services resolved).
    public func connect(on connection: DBusConnection, timeoutMilliseconds: Int, reply: @escaping (DBusReply) -> Void) {
        connection.call(.methodCall(destination: BlueZ.service, path: path, interface: BlueZ.device1, method: "Connect"),
                        timeoutMilliseconds: timeoutMilliseconds, reply: reply)
    }

    public func disconnect(on connection: DBusConnection, reply: @escaping (DBusReply) -> Void) {
        connection.call(.methodCall(destination: BlueZ.service, path: path, interface: BlueZ.device1, method: "Disconnect"),
                        reply: reply)
    }
}

/// A view of an `org.bluez.GattCharacteristic1` object.
public struct GattCharacteristic1: Sendable {
    /// `WriteValue`'s `type` option.
    public enum WriteType: String, Sendable {
        /// Write with response.
        case request
        /// Write without response.
        case command
    }

    public let path: String
    public let properties: [String: DBusValue]
    public init(path: String, properties: [String: DBusValue]) { self.path = path; self.properties = properties }
    public var uuid: String { properties["UUID"]?.string?.lowercased() ?? "" }
    public var flags: [String] { properties["Flags"]?.stringArray ?? [] }
    public var service: String? { properties["Service"]?.string }

    private func message(_ method: String, _ args: [DBusValue] = []) -> DBusMessage {
        .methodCall(destination: BlueZ.service, path: path, interface: BlueZ.gattCharacteristic1, method: method, arguments: args)
    }

    /// `ReadValue({})`.
    public func readValue(on connection: DBusConnection, reply: @escaping (Result<[UInt8], DBusError>) -> Void) {
        connection.call(message("ReadValue", [.dictionary([:])])) { r in
            reply(r.flatMap { args in args.first?.bytes.map { .success($0) } ?? .failure(.failed("ReadValue: no bytes")) })
        }
    }

    /// `WriteValue(value, {"type": type})`.
    public func writeValue(_ bytes: [UInt8], type: WriteType, on connection: DBusConnection,
                           reply: @escaping (DBusReply) -> Void) {
        connection.call(message("WriteValue", [.bytes(bytes), .dictionary(["type": .string(type.rawValue)])]), reply: reply)
    }

    public func startNotify(on connection: DBusConnection, reply: @escaping (DBusReply) -> Void) {
        connection.call(message("StartNotify"), reply: reply)
    }

    public func stopNotify(on connection: DBusConnection, reply: @escaping (DBusReply) -> Void) {
        connection.call(message("StopNotify"), reply: reply)
    }

    /// `AcquireNotify({})`: a SOCK_SEQPACKET fd carrying one notification per datagram, and
    /// the MTU. The fd belongs to the caller; closing it stops notifications.
    public func acquireNotify(on connection: DBusConnection,
                              reply: @escaping (Result<(fd: Int32, mtu: Int), DBusError>) -> Void) {
        connection.call(message("AcquireNotify", [.dictionary([:])])) { r in
            switch r {
            case .failure(let e): reply(.failure(e))
            case .success(let args):
                guard args.count >= 2, case .unixFD(let fd) = args[0], let mtu = args[1].int else {
                    for case .unixFD(let fd) in args { _ = closeFD(fd) }
                    reply(.failure(.failed("AcquireNotify: unexpected reply \(args)")))
                    return
                }
                reply(.success((fd, mtu)))
            }
        }
    }
}
