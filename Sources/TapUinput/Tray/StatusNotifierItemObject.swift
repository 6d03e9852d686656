import DBus

/// The tray icon exported as `org.kde.StatusNotifierItem` at `/StatusNotifierItem`.
///
/// Contract:
/// - Properties (read with `org.freedesktop.DBus.Properties.Get`/`GetAll`): `Category`
///   (`Hardware`), `Id` (`tap-uinput`), `Title`, `Status` (`Passive`/`Active`/`NeedsAttention`),
///   `WindowId` (0), `IconName`, `IconPixmap` (none: hosts take the theme icon), `OverlayIconName`,
///   `AttentionIconName`, `ToolTip` (`(sa(iiay)ss)`: icon, no pixmaps, title, text),
///   `ItemIsMenu` (true: a click shows the menu), `Menu` (the dbusmenu path), `IconThemePath`.
/// - ``update(_:)`` emits `NewTitle`, `NewIcon`, `NewAttentionIcon`, `NewToolTip` and
///   `NewStatus(status)` for exactly the properties that changed, so hosts refetch only then.
/// - `Activate`, `SecondaryActivate`, `ContextMenu` and `Scroll` are accepted and do nothing
///   (the menu is the interface; hosts show it themselves because `ItemIsMenu` is true).
public final class StatusNotifierItemObject {
    public static let interface = "org.kde.StatusNotifierItem"
    public static let path = "/StatusNotifierItem"
    public static let id = "tap-uinput"
    public private(set) var presentation: TrayPresentation
    private let connection: DBusConnection
    private let menuPath: String

    /// Exports the item showing `presentation`, its menu at `menuPath`.
    public init(connection: DBusConnection, menuPath: String, presentation: TrayPresentation) throws(DBusError) {
        self.connection = connection
        self.menuPath = menuPath
        self.presentation = presentation
        let object = DBusObject(path: Self.path)
        object.add(makeInterface())
        try connection.export(object)
    }

    public func close() { connection.unexport(path: Self.path) }

    /// Shows `new`, signalling each changed property (see the type's contract).
    public func update(_ new: TrayPresentation) {
        let old = presentation
        presentation = new
        if old.title != new.title { emit("NewTitle") }
        if old.iconName != new.iconName { emit("NewIcon") }
        if old.attentionIconName != new.attentionIconName { emit("NewAttentionIcon") }
        if old.toolTipText != new.toolTipText || old.iconName != new.iconName { emit("NewToolTip") }
        if old.status != new.status { emit("NewStatus", [.string(new.status.rawValue)]) }
    }

    /// `(sa(iiay)ss)`: icon name, pixmaps, title, body.
    var toolTip: DBusValue {
        .structure([.string(presentation.iconName), Self.noPixmaps, .string("TapUinput"), .string(presentation.toolTipText)])
    }

    private static let noPixmaps = DBusValue.array(elementSignature: "(iiay)", [])

    private func emit(_ name: String, _ arguments: [DBusValue] = []) {
        connection.emitSignal(path: Self.path, interface: Self.interface, name: name, arguments: arguments)
    }

    private func makeInterface() -> DBusInterface {
        let nothing = { (call: DBusMethodCall) in call.reply([]) }
        func property(_ signature: String, _ get: @escaping (StatusNotifierItemObject) -> DBusValue) -> DBusProperty {
            // Weak: the object table must not keep the item alive after the tray is gone.
            DBusProperty(signature: signature) { [weak self] in self.map(get) ?? .string("") }
        }
        return DBusInterface(name: Self.interface, methods: [
            "Activate": DBusMethod(in: "ii", handler: nothing),
            "SecondaryActivate": DBusMethod(in: "ii", handler: nothing),
            "ContextMenu": DBusMethod(in: "ii", handler: nothing),
            "Scroll": DBusMethod(in: "is", handler: nothing),
        ], properties: [
            "Category": DBusProperty(signature: "s") { .string("Hardware") },
            "Id": DBusProperty(signature: "s") { .string(Self.id) },
            "Title": property("s") { .string($0.presentation.title) },
            "Status": property("s") { .string($0.presentation.status.rawValue) },
            "WindowId": DBusProperty(signature: "i") { .int32(0) },
            "IconName": property("s") { .string($0.presentation.iconName) },
            "IconPixmap": DBusProperty(signature: "a(iiay)") { Self.noPixmaps },
            "OverlayIconName": DBusProperty(signature: "s") { .string("") },
            "OverlayIconPixmap": DBusProperty(signature: "a(iiay)") { Self.noPixmaps },
            "AttentionIconName": property("s") { .string($0.presentation.attentionIconName) },
            "AttentionIconPixmap": DBusProperty(signature: "a(iiay)") { Self.noPixmaps },
            "AttentionMovieName": DBusProperty(signature: "s") { .string("") },
            "ToolTip": property("(sa(iiay)ss)") { $0.toolTip },
            "ItemIsMenu": DBusProperty(signature: "b") { .bool(true) },
            "Menu": property("o") { .objectPath($0.menuPath) },
            "IconThemePath": DBusProperty(signature: "s") { .string("") },
        ], signals: [
            "NewTitle": "", "NewIcon": "", "NewAttentionIcon": "", "NewOverlayIcon": "", "NewToolTip": "",
            "NewStatus": "s",
        ])
    }
}
