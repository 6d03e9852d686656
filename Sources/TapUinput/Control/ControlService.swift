import ChordMap
import DBus
import KeyboardLayout
import Logging
import TapBLE

/// The daemon's control interface: `org.tapuinput.Daemon1` at `/org/tapuinput/Daemon`,
/// under the well-known name `org.tapuinput.Daemon` on the **session** bus (a user's daemon,
/// for that user's tools and desktop scripts; nothing on the system bus).
///
/// Methods are checked here (signature by the D-Bus layer, values such as haptic durations
/// here) and passed to a ``ControlHandler``, the daemon. Wrong arguments get a D-Bus error
/// reply (`org.freedesktop.DBus.Error.InvalidArgs`, `org.tapuinput.Error.*`), never a crash.
/// Signals are emitted by the daemon through the methods in "Signals" below.
///
/// `Tap` signals carry what the user types, so they are only sent while some client has
/// asked for them with `WatchTaps()` (and until it calls `UnwatchTaps()` or leaves the bus);
/// the daemon can skip describing taps when ``wantsTaps`` is false.
///
/// ```swift
/// let session = try DBusConnection(bus: .session, loop: loop)
/// let control = try ControlService(connection: session, handler: daemon)   // exports, owns the name
/// control.keymapChanged(name: "browser", file: "/home/me/.config/tapuinput/web.toml")
/// ```
///
/// Not thread-safe: everything runs on the connection's loop. The handler is held weakly
/// (the daemon owns the service); requests after it is gone fail with `org.tapuinput.Error.Failed`.
public final class ControlService {
    public let connection: DBusConnection
    private weak var handler: ControlHandler?
    private let log = LogSetup.logger("control")
    /// Unique bus names of the clients that asked for `Tap` signals, with their owner watches.
    private var tapWatchers: [String: DBusConnection.Subscription] = [:]

    /// Exports the object and takes ``ControlInterface/busName``.
    ///
    /// - Parameter requestName: false leaves the name alone (tests that export several
    ///   services on one bus).
    /// - Throws: `org.freedesktop.DBus.Error.AddressInUse` when another daemon already owns the
    ///   name (the caller should say so and exit), or the export failure.
    public init(connection: DBusConnection, handler: ControlHandler, requestName: Bool = true) throws(DBusError) {
        self.connection = connection
        self.handler = handler
        let object = DBusObject(path: ControlInterface.objectPath)
        object.add(makeInterface())
        try connection.export(object)
        if requestName {
            do {
                try connection.requestName(ControlInterface.busName)
            } catch {
                connection.unexport(path: ControlInterface.objectPath)
                throw error
            }
        }
    }

    deinit { close() }

    /// Stops exporting and forgets tap watchers (the name goes when the connection closes).
    public func close() {
        for sub in tapWatchers.values { connection.unsubscribe(sub) }
        tapWatchers.removeAll()
        connection.unexport(path: ControlInterface.objectPath)
    }

    /// Whether any client wants `Tap` signals now.
    public var wantsTaps: Bool { !tapWatchers.isEmpty }

    // MARK: Signals

    /// A device is ready (subscribed, in controller mode).
    public func deviceConnected(id: String, name: String) { emit("DeviceConnected", [.string(id), .string(name)]) }
    /// A ready device went away, and why.
    public func deviceDisconnected(id: String, reason: String) { emit("DeviceDisconnected", [.string(id), .string(reason)]) }
    /// A device's active layer changed (``EngineDriver/onLayerChange``).
    public func layerChanged(device: String, layer: String) { emit("LayerChanged", [.string(device), .string(layer)]) }
    /// The focused application changed, as the keymap selection saw it.
    public func focusChanged(appID: String, title: String) { emit("FocusChanged", [.string(appID), .string(title)]) }
    /// The keymap for devices without their own changed (``KeymapSelector/onChange``).
    public func keymapChanged(name: String, file: String?) { emit("KeymapChanged", [.string(name), .string(file ?? "")]) }
    /// A reload found broken files: the diagnostics, file:line:column first (``KeymapSelector/onError``).
    public func keymapError(_ message: String) { emit("KeymapError", [.string(message)]) }

    /// One tap, for `tap-uinput monitor`: the device, the chord (1...31), what it did
    /// (``ControlText/describe(_:)``), the focused app and the layer it was looked up in.
    /// Sent only while ``wantsTaps``.
    public func tap(device: String, chord: Chord, action: String, app: String, layer: String) {
        // Unicast to each watcher: what the user types is not broadcast to the whole bus.
        let arguments: [DBusValue] = [.string(device), .byte(chord.rawValue), .string(action), .string(app), .string(layer)]
        for watcher in tapWatchers.keys { emit("Tap", arguments, to: watcher) }
    }

    private func emit(_ name: String, _ arguments: [DBusValue], to destination: String? = nil) {
        connection.emitSignal(path: ControlInterface.objectPath, interface: ControlInterface.interface,
                              name: name, arguments: arguments, destination: destination)
    }

    // MARK: Methods

    private func makeInterface() -> DBusInterface {
        DBusInterface(name: ControlInterface.interface, methods: [
            ControlInterface.statusMethod: DBusMethod(in: "", out: "a{sv}") { [weak self] call in
                guard let handler = self?.live(call) else { return }
                call.reply([handler.controlStatus().dbusValue])
            },
            ControlInterface.reloadMethod: DBusMethod(in: "", out: "") { [weak self] call in
                guard let handler = self?.live(call) else { return }
                do throws(ControlError) { try handler.controlReload(); call.reply([]) } catch { call.fail(error.dbusError) }
            },
            ControlInterface.setKeymapMethod: DBusMethod(in: "s", out: "") { [weak self] call in
                guard let handler = self?.live(call), let path = call.arguments.first?.string else { return }
                do throws(ControlError) { try handler.controlSetKeymap(path: path); call.reply([]) } catch { call.fail(error.dbusError) }
            },
            ControlInterface.setFocusMethod: DBusMethod(in: "ss", out: "") { [weak self] call in
                guard let handler = self?.live(call) else { return }
                let a = call.arguments
                handler.controlSetFocus(appID: a[0].string ?? "", title: a[1].string ?? "")
                call.reply([])
            },
            ControlInterface.setLayoutMethod: DBusMethod(in: "ss", out: "") { [weak self] call in
                guard let handler = self?.live(call) else { return }
                let origin = call.arguments[0].string ?? "", spelling = call.arguments[1].string ?? ""
                guard !origin.isEmpty, origin.count <= 32, origin.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                    call.fail(ControlError.invalidArgument("the origin is a short name such as gnome or kde").dbusError)
                    return
                }
                let layout = LayoutNames(spelling: spelling)
                guard layout != nil || spelling.isEmpty else {
                    call.fail(ControlError.invalidArgument("\"\(spelling)\" is not an XKB layout name such as de, fr+azerty or us(dvorak)").dbusError)
                    return
                }
                handler.controlSetLayout(origin: origin, layout: layout)
                call.reply([])
            },
            ControlInterface.vibrateMethod: DBusMethod(in: "sau", out: "") { [weak self] call in
                guard let handler = self?.live(call) else { return }
                let device = call.arguments[0].string ?? ""
                let durations = (call.arguments[1].array ?? []).compactMap(\.int)
                if let problem = Self.checkDurations(durations) { call.fail(problem.dbusError); return }
                handler.controlVibrate(device: device, durationsMs: durations) { error in
                    if let error { call.fail(error.dbusError) } else { call.reply([]) }
                }
            },
            ControlInterface.setModeMethod: DBusMethod(in: "ss", out: "") { [weak self] call in
                guard let handler = self?.live(call) else { return }
                let device = call.arguments[0].string ?? ""
                let mode = call.arguments[1].string ?? ""
                if mode.isEmpty { call.fail(ControlError.invalidArgument("give a mode: text, controller, ...").dbusError); return }
                handler.controlSetMode(device: device, mode: mode) { error in
                    if let error { call.fail(error.dbusError) } else { call.reply([]) }
                }
            },
            ControlInterface.watchTapsMethod: DBusMethod(in: "", out: "") { [weak self] call in
                guard let self, let sender = call.sender else { call.fail(ControlError.failed("no sender").dbusError); return }
                self.addTapWatcher(sender)
                call.reply([])
            },
            ControlInterface.unwatchTapsMethod: DBusMethod(in: "", out: "") { [weak self] call in
                if let sender = call.sender { self?.removeTapWatcher(sender) }
                call.reply([])
            },
        ], signals: ControlInterface.signals)
    }

    /// The handler, or nil after failing `call` when the daemon is gone.
    private func live(_ call: DBusMethodCall) -> ControlHandler? {
        guard let handler else {
            call.fail(ControlError.failed("the daemon is shutting down").dbusError)
            return nil
        }
        return handler
    }

    /// Nil when `durations` is a pattern the device can play, else why not.
    static func checkDurations(_ durations: [Int]) -> ControlError? {
        let range = ControlInterface.hapticDurationRange
        guard (1...ControlInterface.maxHapticDurations).contains(durations.count) else {
            return .invalidArgument("give 1 to \(ControlInterface.maxHapticDurations) durations, not \(durations.count)")
        }
        if let bad = durations.first(where: { !range.contains($0) }) {
            return .invalidArgument("duration \(bad) ms is outside \(range.lowerBound)...\(range.upperBound) ms")
        }
        return nil
    }

    // MARK: Tap watchers

    private func addTapWatcher(_ sender: String) {
        guard tapWatchers[sender] == nil else { return }
        log.debug("\(sender) watches taps")
        // The owner watch reports the current owner first, then nil when the client leaves the bus.
        tapWatchers[sender] = connection.watchNameOwner(sender) { [weak self] owner in
            if owner == nil { self?.removeTapWatcher(sender) }
        }
    }

    private func removeTapWatcher(_ sender: String) {
        guard let sub = tapWatchers.removeValue(forKey: sender) else { return }
        log.debug("\(sender) stopped watching taps")
        connection.unsubscribe(sub)
    }
}
