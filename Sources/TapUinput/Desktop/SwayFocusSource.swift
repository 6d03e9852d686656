import EventLoop
import FoundationEssentials
import KeyboardLayout
import Logging

/// Focus from sway or i3 over their IPC socket (`SWAYSOCK` / `I3SOCK`).
///
/// On connect it sends `SUBSCRIBE ["window"]` and, once, `GET_TREE` for the focus at start;
/// from then on it only listens. Reported:
/// - `focus` events: the newly focused window;
/// - `title` events of the focused window;
/// - `close` of the focused window: "nothing focused" (the next `focus` event follows when
///   another window takes the focus).
///
/// The app id is `app_id` for Wayland-native windows and `window_properties.class` for X11
/// windows (Xwayland, i3). The IPC replies and events arrive in the order sway produced them,
/// so the GET_TREE answer is never older than an event before it.
///
/// sway (not i3) also reports the keyboard layout over the same connection: with a layout
/// callback set, the source subscribes to `input` events and sends `GET_INPUTS` once; the
/// layout's description maps back to XKB names through ``LayoutRegistry``.
public final class SwayFocusSource: DesktopSource, LayoutReporting {
    public let socketPath: String
    /// Whether the IPC connection is up (for status output and tests).
    public var isConnected: Bool { connection != nil }

    private var connection: UnixStreamConnection?
    private var decoder = SwayIPC.Decoder()
    private var focusedID: Int?
    private var layouts: LayoutDescriptions

    /// - Parameters:
    ///   - socketPath: the IPC socket (`$SWAYSOCK` or `$I3SOCK`).
    ///   - name: `"sway"` or `"i3"`; only used in reports and logs.
    ///   - retry: how to reconnect after the compositor goes away; nil: don't.
    ///   - noneGraceMilliseconds: how long "nothing focused" must last to be reported (sway
    ///     sends `close` of the focused window before the `focus` of the next one).
    ///   - keyboardName: the keyboard whose layout counts (our uinput keyboard's name).
    public init(socketPath: String, name: String = "sway", retry: FocusRetryPolicy? = .standard,
                noneGraceMilliseconds: Int = 150, keyboardName: String = DeviceProfile.keyboard.name) {
        self.socketPath = socketPath
        self.layouts = LayoutDescriptions(keyboardName: keyboardName)
        super.init(name: name, retry: retry, noneGraceMilliseconds: noneGraceMilliseconds)
    }

    /// Unregisters from the loop: its handlers must not outlive the source.
    deinit { stop() }

    override func prepareForStart() { layouts.reset() }

    override var peerDescription: String { socketPath }

    override func disconnect() {
        connection?.close()
        connection = nil
    }

    override func connect() throws(FocusSourceError) {
        guard let loop else { return }
        decoder = SwayIPC.Decoder()
        focusedID = nil
        do {
            connection = try UnixStreamConnection(
                path: socketPath, loop: loop,
                onData: { [unowned self] in self.received($0) },
                onClose: { [unowned self] in self.lost($0) })
        } catch {
            throw FocusSourceError(source: name, message: error.message)
        }
        if followsLayout {
            layouts.table.removeAll()
            connection?.send(SwayIPC.encode(.subscribe, payload: #"["window","input"]"#)
                             + SwayIPC.encode(.getTree) + SwayIPC.encode(.getInputs))
        } else {
            connection?.send(SwayIPC.encode(.subscribe, payload: #"["window"]"#)
                             + SwayIPC.encode(.getTree))
        }
    }

    private func received(_ bytes: [UInt8]) {
        decoder.append(bytes)
        do {
            while let message = try decoder.next() {
                handle(type: message.type, payload: message.payload)
                if connection == nil { return }
            }
        } catch {
            connection?.close()
            lost("malformed IPC stream")
        }
    }

    private func handle(type: UInt32, payload: [UInt8]) {
        let json = Data(payload)
        switch type {
        case SwayIPC.MessageType.subscribe.rawValue:
            guard (try? JSONDecoder().decode(SwaySuccessReply.self, from: json))?.success == true else {
                connection?.close()
                lost("subscribe refused: \(String(decoding: payload, as: UTF8.self))")
                return
            }
            reconnector.succeeded()
            log.debug("\(name): subscribed to window\(followsLayout ? " and input" : "") events on \(socketPath)")
        case SwayIPC.MessageType.getTree.rawValue:
            guard let root = try? JSONDecoder().decode(SwayNode.self, from: json) else {
                log.warning("\(name): unreadable GET_TREE reply")
                return
            }
            if let node = root.focusedNode(), node.isWindow {
                focusedID = node.id
                report(node.focusInfo(source: name))
            } else {
                report(.none(source: name))
            }
        case SwayIPC.windowEvent:
            guard let event = try? JSONDecoder().decode(SwayWindowEvent.self, from: json) else {
                log.debug("\(name): unreadable window event")
                return
            }
            let node = event.container
            switch event.change {
            case "focus":
                focusedID = node.id
                report(node.focusInfo(source: name))
            case "title" where node.focused == true || node.id == focusedID:
                focusedID = node.id
                report(node.focusInfo(source: name))
            case "close" where node.id == focusedID:
                focusedID = nil
                report(.none(source: name))
            default:
                break
            }
        case SwayIPC.MessageType.getInputs.rawValue:
            guard let inputs = try? JSONDecoder().decode([SwayInput].self, from: json) else {
                log.warning("\(name): unreadable GET_INPUTS reply")
                return
            }
            layouts.table.replaceAll(inputs)
            reportLayout(from: &layouts)
        case SwayIPC.inputEvent:
            guard let event = try? JSONDecoder().decode(SwayInputEvent.self, from: json) else {
                log.debug("\(name): unreadable input event")
                return
            }
            layouts.table.apply(event)
            reportLayout(from: &layouts)
        default:
            break
        }
    }

    /// i3 has no input events; sway's are asked for only when someone listens.
    private var followsLayout: Bool { name == "sway" && onLayoutChange != nil }
}
