/// A signal match: sent to the bus daemon as a match rule, and checked again locally so each
/// subscriber only sees the signals it asked for.
///
/// A well-known `sender` (`org.bluez`) is compared against its tracked unique name (signals
/// carry the unique name); start tracking with ``DBusConnection/watchNameOwner(_:handler:)``.
public struct DBusMatchRule: Hashable, Sendable {
    public var sender: String?
    public var path: String?
    /// Matches `pathNamespace` itself and every path below it.
    public var pathNamespace: String?
    public var interface: String?
    public var member: String?
    /// The first argument, if it is a string or object path.
    public var arg0: String?

    public init(sender: String? = nil, path: String? = nil, pathNamespace: String? = nil,
                interface: String? = nil, member: String? = nil, arg0: String? = nil) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule in the bus daemon's syntax.
    public var ruleString: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// Whether `message` (a signal) matches; `owner` resolves a well-known sender name.
    func matches(_ message: DBusMessage, owner: (String) -> String?) -> Bool {
        if let interface, let member {
            guard message.isSignal(interface: interface, member: member) else { return false }
        } else {
            guard message.kind == .signal else { return false }
            if let interface, message.interface != interface { return false }
            if let member, message.member != member { return false }
        }
        // Compared as C strings: this runs for every signal, and the hot ones are notifications.
        if let path, !message.hasPath(path) { return false }
        if let ns = pathNamespace, ns != "/", !message.isInPathNamespace(ns) { return false }
        if let sender {
            if sender.hasPrefix(":") || sender == "org.freedesktop.DBus" {
                if sender != "org.freedesktop.DBus", !message.hasSender(sender) { return false }
            } else if let unique = owner(sender) {
                if !message.hasSender(unique) { return false }
            } else {
                return false
            }
        }
        if let arg0, !message.firstArgumentEquals(arg0) { return false }
        return true
    }
}
