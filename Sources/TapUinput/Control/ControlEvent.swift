import ChordMap
import DBus
import TapBLE

/// One signal of the control interface, decoded (what `tap-uinput monitor` shows).
public enum ControlEvent: Equatable, Sendable {
    case deviceConnected(id: String, name: String)
    case deviceDisconnected(id: String, reason: String)
    case layerChanged(device: String, layer: String)
    case focusChanged(appID: String, title: String)
    case keymapChanged(name: String, file: String)
    case keymapError(message: String)
    /// `chord` is nil when the daemon sent a value outside 1...31.
    case tap(device: String, chord: Chord?, action: String, app: String, layer: String)

    /// Decodes a signal of ``ControlInterface/interface``; nil for other signals or
    /// arguments of the wrong shape.
    public init?(signal message: DBusMessage) {
        guard message.interface == ControlInterface.interface, let member = message.member,
              let signature = ControlInterface.signals[member], message.signature == signature else { return nil }
        let a = message.arguments
        func s(_ i: Int) -> String { a[i].string ?? "" }
        switch member {
        case "DeviceConnected": self = .deviceConnected(id: s(0), name: s(1))
        case "DeviceDisconnected": self = .deviceDisconnected(id: s(0), reason: s(1))
        case "LayerChanged": self = .layerChanged(device: s(0), layer: s(1))
        case "FocusChanged": self = .focusChanged(appID: s(0), title: s(1))
        case "KeymapChanged": self = .keymapChanged(name: s(0), file: s(1))
        case "KeymapError": self = .keymapError(message: s(0))
        case "Tap":
            let chord = a[1].int.flatMap { UInt8(exactly: $0) }.flatMap(Chord.init(rawValue:))
            self = .tap(device: s(0), chord: chord, action: s(2), app: s(3), layer: s(4))
        default: return nil
        }
    }
}
