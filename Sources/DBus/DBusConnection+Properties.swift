/// Client side of `org.freedesktop.DBus.Properties`.
extension DBusConnection {
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// `Get(interface, name)`; the reply's variant is unwrapped.
    public func getProperty(destination: String, path: String, interface: String, name: String,
                            reply: @escaping (Result<DBusValue, DBusError>) -> Void) {
        call(.methodCall(destination: destination, path: path, interface: Self.propertiesInterface, method: "Get",
                         arguments: [.string(interface), .string(name)])) { r in
            reply(r.flatMap { args in args.first.map { .success($0.unwrapped) } ?? .failure(.failed("Get: empty reply")) })
        }
    }

    /// `GetAll(interface)`; variants are unwrapped.
    public func getAllProperties(destination: String, path: String, interface: String,
                                 reply: @escaping (Result<[String: DBusValue], DBusError>) -> Void) {
        call(.methodCall(destination: destination, path: path, interface: Self.propertiesInterface, method: "GetAll",
                         arguments: [.string(interface)])) { r in
            reply(r.flatMap { args in args.first?.dictionary.map { .success($0) } ?? .failure(.failed("GetAll: bad reply")) })
        }
    }

    /// `Set(interface, name, variant(value))`.
    public func setProperty(destination: String, path: String, interface: String, name: String, value: DBusValue,
                            reply: @escaping (DBusReply) -> Void) {
        call(.methodCall(destination: destination, path: path, interface: Self.propertiesInterface, method: "Set",
                         arguments: [.string(interface), .string(name), .variant(value)]), reply: reply)
    }
}
