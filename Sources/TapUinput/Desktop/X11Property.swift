import CXCB
import KeyboardLayout

/// The atoms the X11 focus source interns at connect (predefined ones such as `WM_CLASS`
/// come from `xcb_atom_enum_t`).
struct X11Atoms {
    static let names = ["_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_XKB_RULES_NAMES"]
    private(set) var netActiveWindow: xcb_atom_t = 0
    private(set) var netWMName: xcb_atom_t = 0
    private(set) var utf8String: xcb_atom_t = 0
    /// The root property where the server (and `setxkbmap`) records the keymap's XKB names.
    private(set) var xkbRulesNames: xcb_atom_t = 0

    mutating func set(_ name: String, _ atom: xcb_atom_t) {
        switch name {
        case "_NET_ACTIVE_WINDOW": netActiveWindow = atom
        case "_NET_WM_NAME": netWMName = atom
        case "UTF8_STRING": utf8String = atom
        case "_XKB_RULES_NAMES": xkbRulesNames = atom
        default: break
        }
    }

    /// Whether a change of `atom` on the active window can change its ``FocusInfo``.
    func isTitleOrClass(_ atom: xcb_atom_t) -> Bool {
        atom == XCB_ATOM_WM_NAME.rawValue || atom == XCB_ATOM_WM_CLASS.rawValue || (atom == netWMName && atom != 0)
    }
}

/// A copied `GetProperty` reply: its type, format and value bytes.
struct X11Property {
    var type: xcb_atom_t
    var format: UInt8
    var bytes: [UInt8]

    /// Copies `reply` (an `xcb_get_property_reply_t *`, not freed here); nil for no reply
    /// (an X error) or a property that does not exist.
    init?(_ reply: UnsafeMutableRawPointer?) {
        guard let reply else { return nil }
        let r = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
        guard r.pointee.type != 0 else { return nil }
        type = r.pointee.type
        format = r.pointee.format
        let length = Int(xcb_get_property_value_length(r))
        if length > 0, let value = xcb_get_property_value(r) {
            bytes = Array(UnsafeRawBufferPointer(start: value, count: length))
        } else {
            bytes = []
        }
    }

    /// A 32-bit `WINDOW` value.
    var window: xcb_window_t? {
        guard format == 32, bytes.count >= 4 else { return nil }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    /// NUL-separated strings (`WM_CLASS` is `instance\0class\0`).
    var strings: [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false)
            .map { X11Property.latin1($0) }
            .filter { !$0.isEmpty }
    }

    /// The NUL-separated fields, empty ones kept (`_XKB_RULES_NAMES` is
    /// `rules\0model\0layout\0variant\0options\0`).
    var fields: [String] {
        var parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { X11Property.latin1($0) }
        if bytes.last == 0 { parts.removeLast() }
        return parts
    }

    /// The layout names of an `_XKB_RULES_NAMES` value; nil when it names no layout.
    var xkbLayoutNames: LayoutNames? {
        let f = fields
        guard f.count >= 3, !f[2].isEmpty else { return nil }
        return LayoutNames(layout: f[2], variant: f.count > 3 ? f[3] : "", options: f.count > 4 ? f[4] : "")
    }

    /// The value as UTF-8 (invalid sequences become U+FFFD).
    var utf8: String { String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }

    /// The value as text: UTF-8 when typed `UTF8_STRING`, else Latin-1 (`STRING`; also a
    /// fair reading of plain-ASCII `COMPOUND_TEXT`).
    func text(utf8Type: xcb_atom_t) -> String {
        type == utf8Type && utf8Type != 0 ? utf8 : X11Property.latin1(bytes.prefix { $0 != 0 })
    }

    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
