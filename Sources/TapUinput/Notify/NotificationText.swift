import ChordMap

/// The texts of the daemon's desktop notifications, one function per kind (the tests assert
/// them word for word).
public enum NotificationText {
    /// `Tap_1 (AA:01)`, or just the id when the name is unknown or the same.
    static func device(id: String, name: String) -> String {
        name.isEmpty || name == id ? id : "\(name) (\(id))"
    }

    public static func connected(id: String, name: String) -> DesktopNotification {
        DesktopNotification(replaceKey: "connection \(id)", summary: "TAP connected",
                            body: "\(device(id: id, name: name)) is ready", category: "device.added")
    }

    public static func disconnected(id: String, name: String, reason: String) -> DesktopNotification {
        DesktopNotification(replaceKey: "connection \(id)", summary: "TAP disconnected",
                            body: "\(device(id: id, name: name)): \(reason)", category: "device.removed")
    }

    public static func batteryLow(id: String, name: String, percent: Int) -> DesktopNotification {
        DesktopNotification(replaceKey: "battery \(id)", summary: "TAP battery low",
                            body: "\(device(id: id, name: name)): \(percent) % left; charge it soon",
                            urgency: .critical, category: "device")
    }

    /// The first diagnostic as `file:line:column: message`, and how many more there are (the
    /// whole text is in the log, `tap-uinput check` and `Status`).
    public static func keymapError(_ error: KeymapError) -> DesktopNotification {
        var body = "the running keymap stays"
        if let d = error.diagnostics.first {
            let l = d.location
            body = "\(l.file):\(l.line):\(l.column): \(d.message)"
            if error.diagnostics.count > 1 { body += " (and \(error.diagnostics.count - 1) more)" }
            body += "\nthe file keeps its last good version; `tap-uinput check` shows all"
        }
        return DesktopNotification(replaceKey: "keymap", summary: "TapUinput: keymap error", body: body,
                                   category: "presence")
    }

    /// `&`, `<`, `>` escaped: the body may be read as markup by the server (the
    /// `body-markup` capability), and file names or messages can hold any of them.
    public static func markupEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
