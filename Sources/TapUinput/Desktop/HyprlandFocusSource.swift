import EventLoop
import FoundationEssentials
import KeyboardLayout
import Logging

/// Focus from Hyprland's event socket (`.socket2.sock`).
///
/// Hyprland writes one line per event, `EVENT>>DATA\n`, to every connected client. Used here:
/// - `activewindow>>CLASS,TITLE`: the focused window (class is Hyprland's app id, `initialClass`
///   aside; the title may itself contain commas, the class does not). `activewindow>>,` means
///   nothing is focused.
/// - `activewindowv2>>ADDRESS` and `windowtitlev2>>ADDRESS,TITLE`: title changes of the
///   focused window, for Hyprland versions that do not repeat `activewindow` on them.
///
/// - `activelayout>>KEYBOARD,LAYOUT`: a keyboard's active layout by its description.
///
/// The focus at start is asked once from the request socket (`.socket.sock`, `j/activewindow`,
/// which Hyprland answers and closes); an event that arrives first wins over that answer. With
/// a layout callback set, the keyboards' layouts at start are asked the same way (`j/devices`).
public final class HyprlandFocusSource: DesktopSource, LayoutReporting {
    public let eventSocketPath: String
    public let requestSocketPath: String?
    /// Whether the event socket is connected (for status output and tests).
    public var isConnected: Bool { events != nil }

    private var events: UnixStreamConnection?
    /// Requests on the request socket still waiting for their answer, by request.
    private var queries: [String: UnixStreamConnection] = [:]
    private var layouts: LayoutDescriptions
    private var line: [UInt8] = []
    private var sawEvent = false
    private var sawLayoutEvent = false
    private var activeAddress = ""
    private var activeClass = ""

    /// - Parameters:
    ///   - eventSocketPath: `.socket2.sock` of the instance.
    ///   - requestSocketPath: `.socket.sock`, asked once for the focus at start; nil: don't ask.
    ///   - retry: how to reconnect after Hyprland goes away; nil: don't.
    ///   - noneGraceMilliseconds: how long "nothing focused" must last to be reported.
    ///   - keyboardName: the keyboard whose layout counts (our uinput keyboard's device name;
    ///     Hyprland lowercases it and writes spaces as `-`).
    public init(eventSocketPath: String, requestSocketPath: String?, retry: FocusRetryPolicy? = .standard,
                noneGraceMilliseconds: Int = 150, keyboardName: String = DeviceProfile.keyboard.name) {
        self.eventSocketPath = eventSocketPath
        self.layouts = LayoutDescriptions(keyboardName: keyboardName.lowercased().replacingOccurrences(of: " ", with: "-"))
        self.requestSocketPath = requestSocketPath
        super.init(name: "hyprland", retry: retry, noneGraceMilliseconds: noneGraceMilliseconds)
    }

    /// The sockets of the instance in `directory` (`$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE`).
    public convenience init(instanceDirectory directory: String, retry: FocusRetryPolicy? = .standard,
                            noneGraceMilliseconds: Int = 150) {
        self.init(eventSocketPath: directory + "/.socket2.sock", requestSocketPath: directory + "/.socket.sock",
                  retry: retry, noneGraceMilliseconds: noneGraceMilliseconds)
    }

    /// Unregisters from the loop: its handlers must not outlive the source.
    deinit { stop() }

    override func prepareForStart() { layouts.reset() }

    override var peerDescription: String { eventSocketPath }

    override func disconnect() {
        events?.close()
        events = nil
        for query in queries.values { query.close() }
        queries = [:]
    }

    override func connect() throws(FocusSourceError) {
        guard let loop else { return }
        line = []
        sawEvent = false
        sawLayoutEvent = false
        activeAddress = ""
        do {
            events = try UnixStreamConnection(
                path: eventSocketPath, loop: loop,
                onData: { [unowned self] in self.received($0) },
                onClose: { [unowned self] in self.lost($0) })
        } catch {
            throw FocusSourceError(source: name, message: error.message)
        }
        ask("j/activewindow") { [unowned self] in self.answeredActiveWindow($0) }
        if onLayoutChange != nil { ask("j/devices") { [unowned self] in self.answeredDevices($0) } }
    }

    /// One request on the request socket; Hyprland answers and closes, and `answered` gets the
    /// whole answer, read on the loop.
    private func ask(_ request: String, answered: @escaping ([UInt8]) -> Void) {
        guard let requestSocketPath, let loop else { return }
        var answer: [UInt8] = []
        queries[request] = try? UnixStreamConnection(
            path: requestSocketPath, loop: loop,
            onData: { answer += $0 },
            onClose: { [unowned self] _ in
                self.queries[request] = nil
                answered(answer)
            })
        queries[request]?.send(Array(request.utf8))
    }

    /// Each keyboard's active layout at start.
    private func answeredDevices(_ answer: [UInt8]) {
        struct Keyboard: Decodable { var name: String; var active_keymap: String? }
        struct Devices: Decodable { var keyboards: [Keyboard] }
        // An activelayout event that came first is newer than this answer.
        guard !sawLayoutEvent, let devices = try? JSONDecoder().decode(Devices.self, from: Data(answer)) else { return }
        for k in devices.keyboards {
            layouts.table.update(identifier: k.name, name: k.name, layout: k.active_keymap ?? "")
        }
        reportLayout(from: &layouts)
    }

    private func answeredActiveWindow(_ answer: [UInt8]) {
        guard !sawEvent else { return }
        struct Window: Decodable { var address: String?; var `class`: String?; var title: String? }
        guard let window = try? JSONDecoder().decode(Window.self, from: Data(answer)) else {
            log.debug("hyprland: no usable activewindow answer: \(String(decoding: answer.prefix(200), as: UTF8.self))")
            return
        }
        activeAddress = window.address ?? ""
        activeClass = window.class ?? ""
        report(FocusInfo(appID: activeClass, title: window.title ?? "", source: name))
    }

    private func received(_ bytes: [UInt8]) {
        reconnector.succeeded()
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                handle(line: String(decoding: line, as: UTF8.self))
                line.removeAll(keepingCapacity: true)
            } else if line.count < 1 << 20 {   // a runaway line is cut, not buffered forever
                line.append(byte)
            }
        }
    }

    private func handle(line: String) {
        guard let separator = line.firstRange(of: ">>") else { return }
        let event = line[..<separator.lowerBound]
        let data = line[separator.upperBound...]
        switch event {
        case "activewindow":
            sawEvent = true
            let (cls, title) = Self.splitFirstComma(data)
            activeClass = cls
            if cls.isEmpty && title.isEmpty { activeAddress = "" }
            report(FocusInfo(appID: cls, title: title, source: name))
        case "activewindowv2":
            sawEvent = true
            activeAddress = String(data)
        case "activelayout":
            // KEYBOARD,LAYOUT: keyboard names have no comma; layout descriptions may.
            sawLayoutEvent = true
            let (keyboard, layout) = Self.splitFirstComma(data)
            layouts.table.update(identifier: keyboard, name: keyboard, layout: layout)
            reportLayout(from: &layouts)
        case "windowtitlev2":
            let (address, title) = Self.splitFirstComma(data)
            if !activeAddress.isEmpty && address == activeAddress && !activeClass.isEmpty {
                report(FocusInfo(appID: activeClass, title: title, source: name))
            }
        default:
            break
        }
    }

    static func splitFirstComma(_ s: Substring) -> (String, String) {
        guard let comma = s.firstIndex(of: ",") else { return (String(s), "") }
        return (String(s[..<comma]), String(s[s.index(after: comma)...]))
    }
}
