import DBus
/// A BlueZ pairing agent (`org.bluez.Agent1`) with the NoInputNoOutput capability.
///
/// A TAP has no display and no keyboard of its own, so pairing is "Just Works": BlueZ asks
/// this agent at most to confirm or authorize, and it agrees. Requests for a PIN or passkey
/// (which a TAP never triggers) are rejected, so nothing is ever paired with a made-up code.
/// Registered for the duration of `tap-uinput pair` only, as the default agent.
public final class PairingAgent {
    public static let path = "/org/tapuinput/agent"
    public static let capability = "NoInputNoOutput"

    private let connection: DBusConnection
    /// Called for every request BlueZ makes, with the method name (for progress output).
    public var onRequest: ((String) -> Void)?

    public init(connection: DBusConnection) { self.connection = connection }

    /// Exports the agent and registers it with BlueZ's AgentManager1 as the default agent.
    public func register(completion: @escaping (DBusError?) -> Void) {
        let object = DBusObject(path: Self.path)
        // Signatures as in BlueZ's doc/org.bluez.Agent.rst; calls with others are refused.
        let accept = { [weak self] (name: String, signature: String) in
            DBusMethod(in: signature) { call in self?.onRequest?(name); call.reply([]) }
        }
        let reject = { [weak self] (name: String, signature: String, out: String) in
            DBusMethod(in: signature, out: out) { call in
                self?.onRequest?(name)
                call.fail(DBusError(name: "org.bluez.Error.Rejected", message: "no PIN or passkey entry on a TAP"))
            }
        }
        object.add(DBusInterface(name: "org.bluez.Agent1", methods: [
            "Release": accept("Release", ""),
            "Cancel": accept("Cancel", ""),
            "RequestConfirmation": accept("RequestConfirmation", "ou"),
            "RequestAuthorization": accept("RequestAuthorization", "o"),
            "AuthorizeService": accept("AuthorizeService", "os"),
            "DisplayPinCode": accept("DisplayPinCode", "os"),
            "DisplayPasskey": accept("DisplayPasskey", "ouq"),
            "RequestPinCode": reject("RequestPinCode", "o", "s"),
            "RequestPasskey": reject("RequestPasskey", "o", "u"),
        ]))
        do { try connection.export(object) } catch { completion(error); return }
        let manager = { (method: String, args: [DBusValue], next: @escaping (DBusError?) -> Void) in
            self.connection.call(.methodCall(destination: BlueZ.service, path: "/org/bluez",
                                             interface: "org.bluez.AgentManager1", method: method, arguments: args)) { r in
                if case .failure(let e) = r { next(e) } else { next(nil) }
            }
        }
        manager("RegisterAgent", [.objectPath(Self.path), .string(Self.capability)]) { error in
            if let error { completion(error); return }
            manager("RequestDefaultAgent", [.objectPath(Self.path)], completion)
        }
    }

    /// Unregisters from BlueZ (best effort) and stops exporting the agent.
    public func unregister() {
        connection.call(.methodCall(destination: BlueZ.service, path: "/org/bluez", interface: "org.bluez.AgentManager1",
                                    method: "UnregisterAgent", arguments: [.objectPath(Self.path)])) { _ in }
        connection.unexport(path: Self.path)
    }
}
