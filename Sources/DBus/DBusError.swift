import CDBus

/// A D-Bus error: a remote error reply, or a local failure given a D-Bus style name.
///
/// The name is the code (`org.bluez.Error.NotSupported`, `org.freedesktop.DBus.Error.NoReply`, …).
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// A generic failure (`org.freedesktop.DBus.Error.Failed`).
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }

    /// The connection is gone.
    public static let disconnected = DBusError(name: "org.freedesktop.DBus.Error.Disconnected",
                                               message: "not connected to the bus")

    /// Takes and frees a set libdbus `DBusError`; nil if it was not set.
    static func take(_ e: inout CDBus.DBusError) -> DBusError? {
        guard dbus_error_is_set(&e) != 0 else { return nil }
        defer { dbus_error_free(&e) }
        return DBusError(name: e.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                         message: e.message.map { String(cString: $0) } ?? "")
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// The outcome of a method call: the reply's arguments or the error.
public typealias DBusReply = Result<[DBusValue], DBusError>
