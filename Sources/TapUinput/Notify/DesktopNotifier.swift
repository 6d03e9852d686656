import DBus
import Logging

/// Sends notifications to the desktop's notification server
/// (`org.freedesktop.Notifications.Notify` on the session bus) without ever waiting for it.
///
/// Contract:
/// - ``show(_:)`` returns at once: the call goes out with a pending reply handled later on
///   the loop, so a slow or hung server cannot stall typing.
/// - Each ``DesktopNotification/replaceKey`` keeps the id the server returned for it, and the
///   next notification with that key passes it as `replaces_id`, so "battery low" updates one
///   bubble instead of stacking. A notification sent while the previous one with the same key
///   is still unanswered replaces nothing (the id is not known yet).
/// - No server (`ServiceUnknown`, `NoReply`, anything else): logged once at debug level, then
///   silence; notifications keep being tried, so a server started later is used.
///
/// Not thread-safe: use it on the connection's loop.
public final class DesktopNotifier {
    public static let busName = "org.freedesktop.Notifications"
    public static let objectPath = "/org/freedesktop/Notifications"
    public static let interface = "org.freedesktop.Notifications"

    private let connection: DBusConnection
    private let logger: Logger
    private var ids: [String: UInt32] = [:]
    private var reportedFailure = false
    /// Notify calls sent (for tests and the log).
    public private(set) var sent = 0

    public init(connection: DBusConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    public func show(_ n: DesktopNotification) {
        let message = DBusMessage.methodCall(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                                             method: "Notify")
        let hints: [String: DBusValue] = ["urgency": .byte(n.urgency.rawValue), "category": .string(n.category)]
        message.append([
            .string("TapUinput"), .uint32(ids[n.replaceKey] ?? 0), .string("input-keyboard"),
            .string(n.summary), .string(NotificationText.markupEscaped(n.body)),
            .array(elementSignature: "s", []), .dictionary(hints), .int32(-1),
        ])
        sent += 1
        let key = n.replaceKey
        connection.call(message, timeoutMilliseconds: 5000) { [weak self] reply in
            guard let self else { return }
            switch reply {
            case .success(let values):
                if let id = values.first?.int, id > 0 { self.ids[key] = UInt32(clamping: id) }
                self.reportedFailure = false
            case .failure(let error):
                if !self.reportedFailure {
                    self.logger.debug("desktop notifications unavailable (\(error)); not shown")
                    self.reportedFailure = true
                }
            }
        }
    }
}

/// One notification: what ``DesktopNotifier`` sends.
public struct DesktopNotification: Equatable, Sendable {
    public enum Urgency: UInt8, Sendable { case low = 0, normal = 1, critical = 2 }
    /// Notifications with the same key replace each other (kind + device).
    public var replaceKey: String
    public var summary: String
    /// Plain text; markup-escaped on sending (servers may read `<` as markup).
    public var body: String
    public var urgency: Urgency = .normal
    /// A freedesktop category (`device.added`, `device.removed`, `device`, `presence`...).
    public var category: String

    public init(replaceKey: String, summary: String, body: String, urgency: Urgency = .normal, category: String) {
        self.replaceKey = replaceKey
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
    }
}
