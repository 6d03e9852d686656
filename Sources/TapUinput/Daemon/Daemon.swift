import ChordMap
import DBus
import KeyboardLayout
import EventLoop
import Glibc
import Logging
import TapBLE

/// The running daemon: one loop that owns every fd, the BLE manager feeding the engine
/// driver, the uinput devices, and the system-bus watchers.
///
/// Lifecycle guarantees (each has a test or an end-to-end scenario):
/// - SIGTERM/SIGINT: release everything, write Text mode back to connected devices, exit 0.
/// - SIGHUP: reload the keymap; a broken keymap is reported with its positions and the
///   running keymap stays.
/// - A device disconnects: release what it held (for a hand of a pair, the pair's), other
///   devices keep theirs.
/// - The adapter powers off, logind announces suspend, the system bus goes away: release
///   everything. The bus is reconnected with backoff.
/// - Another user's session becomes active on the seat (logind): release everything and drop
///   taps until ours is back (``SeatWatcher``).
/// - Each device gets its hand role on connect, after keymap switches and on reload (the base
///   keymap's `[hands]`, else `hands.conf` from `tap-uinput pair --role`).
public final class Daemon {
    public struct Options {
        /// `--keymap`; nil = the user's keymap file if it exists, else the built-in.
        public var keymapPath: String?
        public var uinputPath = "/dev/uinput"
        public var systemBus: DBusConnection.Bus = .system
        public var manager = TapManager.Options()
        public var restoreTextModeOnExit = true
        /// `--layout`: type characters for this layout whatever the desktop reports.
        public var layout: LayoutNames?
        public var configPaths = ConfigPaths()
        /// Where the control interface (`org.tapuinput.Daemon`) is offered; nil: nowhere.
        public var sessionBus: DBusConnection.Bus? = .session
        /// Desktop notifications on the session bus (`--no-notifications`, `--battery-low`).
        public var notifications = DaemonNotifications.Options()
        public init() {}
    }

    let options: Options
    private let logger: Logger
    let loop: EventLoop
    let driver: EngineDriver
    private var systemBus: DBusConnection?
    var manager: TapEventSource?
    /// Makes the BLE side on a fresh system-bus connection: ``TapManager`` unless a test gives
    /// its own (``init(options:sink:logger:devices:)``).
    private let makeDevices: (DBusConnection, EventLoop) -> TapEventSource
    private var sleepWatcher: SleepWatcher?
    /// Whether our user's session is the active one on the seat (logind).
    private var seatWatcher: SeatWatcher?
    private var localedWatcher: LocaledLayoutWatcher?
    /// The layout the focus connection reports (X11, sway), and systemd-localed's, the fallback.
    private var desktopLayout: LayoutReport?
    private var localedLayout: LayoutReport?
    /// The layout a desktop helper pushes over `SetLayout` (the GNOME Shell extension) or KWin
    /// announces on the session bus (KDE Plasma).
    var pushedLayout: LayoutReport?
    private var kdeLayoutWatcher: KDELayoutWatcher?
    private var busRetryMilliseconds = 500
    /// Set once shutdown starts: inputs that still arrive while Text mode is written are dropped.
    private var stopping = false
    let selector: KeymapSelector
    private var keymapWatcher: KeymapWatcher?
    private var control: ControlService?
    var focusSource: FocusSource?
    let pushedFocus = PushedFocusSource()
    private(set) var notifications: DaemonNotifications?

    /// Loads the keymap and creates the uinput devices.
    ///
    /// - Parameter sink: where input events go; nil (the default) creates the two uinput
    ///   devices. Tests and the benchmark pass a ``RecordingSink`` where there is no uinput.
    /// - Throws: ``ChordMap/KeymapError`` or ``UinputError``, both with messages that say
    ///   what to do; the caller prints them and exits non-zero.
    /// - Parameter devices: the BLE side, made on each system-bus connection; nil (the default)
    ///   makes a ``TapManager`` with `options.manager`.
    /// - Parameter clock: the engine's time; nil (the default) is the loop's (``LoopClock``).
    public init(options: Options, sink: EventSink? = nil, logger: Logger = LogSetup.logger("daemon"),
                devices: ((DBusConnection, EventLoop) -> TapEventSource)? = nil, clock: EngineClock? = nil) throws {
        self.options = options
        self.logger = logger
        let managerOptions = options.manager
        makeDevices = devices ?? { bus, loop in
            TapManager(connection: bus, loop: loop, options: managerOptions, logger: LogSetup.logger("ble"))
        }
        loop = try EventLoop()
        selector = KeymapSelector(catalog: .load(paths: options.configPaths, explicitMainFile: options.keymapPath))
        if let error = selector.mainKeymapError { throw error }
        if let error = selector.currentError { logger.error("keymap files with errors are skipped:\n\(error)") }
        let loaded = selector.active
        logger.info("keymap: \(loaded.keymap.name) (\(loaded.file ?? "built-in"))")
        let writer = FrameWriter(sink: try sink ?? UinputSink(uinputPath: options.uinputPath))
        let layout = options.layout.map { LayoutReport(.names($0), origin: "option") } ?? .fallback
        driver = EngineDriver(keymap: loaded.keymap, layout: layout, commands: loaded.commands, writer: writer,
                              clock: clock ?? LoopClock(loop: loop), logger: LogSetup.logger("engine"))
        driver.onDeviceCommand = { [unowned self] in self.perform($0) }
        driver.connectedDevices = { [unowned self] in self.selector.devices }
        loadHandAssignments()
        driver.onLayerChange = { [unowned self] in self.control?.layerChanged(device: $0, layer: $1) }
        selector.onChange = { [unowned self] plan in
            self.driver.apply(plan)
            self.logger.info("keymap: \(plan.base.keymap.name) (\(plan.base.file ?? "built-in"))")
            self.control?.keymapChanged(name: plan.base.keymap.name, file: plan.base.file)
        }
        selector.onError = { [unowned self] error in
            self.logger.error("keymap files with errors keep their last good version:\n\(error)")
            self.control?.keymapError(error.description)
            self.notifications?.keymapError(error)
        }
    }

    /// Runs until SIGTERM or SIGINT. Returns the process exit code.
    public func run() throws -> Int32 {
        try loop.handleSignals([SIGTERM, SIGINT, SIGHUP, SIGCHLD]) { [unowned self] signo in
            switch signo {
            case SIGHUP: try? self.reloadKeymap()
            case SIGCHLD: CommandRunner.reapChildren()
            default:
                self.logger.info("signal \(signo): stopping")
                self.loop.stop()
            }
        }
        try start()
        loop.run()
        shutdown()
        return 0
    }

    /// Connects everything and returns; the loop then does the work. (``run()`` without the
    /// signals and the loop, for the in-process tests that drive ``loop`` themselves.)
    func start() throws {
        // The control name first: a second daemon for the same user must stop before it
        // touches the devices (two managers would fight over the TAP or type twice).
        try startControl()
        connectSystemBus()
        startFocus()
        startKeymapWatcher()
        logger.info("ready")
        loop.schedule(afterMilliseconds: Self.firstRunHintDelayMilliseconds) { [unowned self] in self.hintIfNothingToDo() }
    }

    // MARK: System bus

    private func connectSystemBus() {
        do {
            let bus = try DBusConnection(bus: options.systemBus, loop: loop)
            bus.onDisconnected = { [unowned self] in self.systemBusLost() }
            let manager = makeDevices(bus, loop)
            manager.onEvent = { [unowned self] in self.handle($0) }
            sleepWatcher = SleepWatcher(connection: bus) { [unowned self] start in
                if start { self.driver.releaseAll(reason: "suspend") }
            }
            seatWatcher = SeatWatcher(connection: bus) { [unowned self] active in
                if !active { self.driver.releaseAll(reason: "another user's session is active") }
            }
            localedWatcher = LocaledLayoutWatcher(connection: bus) { [unowned self] in
                self.localedLayout = $0
                self.layoutChanged()
            }
            systemBus = bus
            self.manager = manager
            busRetryMilliseconds = 500
            manager.start()
        } catch {
            logger.warning("system bus unavailable (\(error)); retrying in \(busRetryMilliseconds) ms")
            scheduleBusRetry()
        }
    }

    private func systemBusLost() {
        logger.warning("system bus connection lost; releasing all keys and reconnecting")
        driver.releaseAll(reason: "system bus lost")
        for device in manager?.devices ?? [] where device.isConnected {
            driver.forget(device: device.id)
            selector.deviceDisconnected(id: device.id)
            control?.deviceDisconnected(id: device.id, reason: "system bus lost")
            notifications?.deviceDisconnected(id: device.id, reason: "system bus lost")
        }
        // Drop the objects after this callback returns: it runs inside the dying connection's
        // own dispatch, which must not free it under its feet.
        let dropped = (sleepWatcher, seatWatcher, localedWatcher, manager, systemBus)
        sleepWatcher = nil
        seatWatcher = nil
        localedWatcher = nil
        manager = nil
        systemBus = nil
        loop.post { _ = dropped }
        scheduleBusRetry()
    }

    private func scheduleBusRetry() {
        loop.schedule(afterMilliseconds: busRetryMilliseconds) { [unowned self] in self.connectSystemBus() }
        busRetryMilliseconds = min(busRetryMilliseconds * 2, 30_000)
    }

    // MARK: Events

    private func handle(_ event: TapEvent) {
        switch event {
        case .input(let device, let input):
            guard !stopping else { return }   // shutting down: nothing more is typed
            // Another user is at the seat: our taps must not type into their session.
            guard seatWatcher?.isActive ?? true else { return }
            guard let e = InputTranslation.event(device: device, input) else { return }
            guard let control, control.wantsTaps, case .tap(let tap) = e else { driver.handle(e); return }
            let layer = driver.activeLayer(of: device)     // the layer the chord is looked up in
            driver.handle(e)
            let binding = ControlText.binding(of: tap.chord, inLayer: layer, of: selector.plan.keymap(for: device).keymap)
            control.tap(device: device, chord: tap.chord, action: ControlText.describe(binding: binding),
                        app: selector.focus.appID, layer: layer)
        case .connected(let info):
            logger.info("connected: \(info)")
            selector.deviceConnected(id: info.id, name: info.name)
            driver.connect(device: info.id, name: info.name)   // after the selector: the device's own keymap decides the pulse
            control?.deviceConnected(id: info.id, name: info.name)
            notifications?.deviceConnected(info)
        case .disconnected(let id, let reason):
            logger.info("disconnected: \(id) (\(reason))")
            selector.deviceDisconnected(id: id)
            control?.deviceDisconnected(id: id, reason: reason)
            notifications?.deviceDisconnected(id: id, reason: reason)
            driver.disconnect(device: id, reason: "disconnected: \(reason)")
        case .connectFailed(let id, let reason):
            logger.warning("could not connect \(id): \(reason)")
        case .adapterPowered(let on):
            logger.info("adapter powered \(on ? "on" : "off")")
            if !on { driver.releaseAll(reason: "adapter powered off") }
        }
    }

    private func perform(_ command: EngineDriver.DeviceCommand) {
        guard let manager else { return }
        switch command {
        case .vibrate(let device, let durations):
            manager.vibrate(durations, device: device, completion: nil)
        case .setInputMode(let device, let mode):
            manager.setMode(mode, device: device, completion: nil)
        case .setXRState(let device, let state):
            manager.setXRState(state, device: device)
        }
    }

    /// How long after start the daemon looks for paired devices before explaining what to do.
    static let firstRunHintDelayMilliseconds = 3000

    /// Friendly first run: says exactly what is missing when there is nothing to manage.
    private func hintIfNothingToDo() {
        guard let manager else {
            logger.notice("cannot reach the D-Bus system bus; is dbus running? Retrying in the background.")
            return
        }
        if !manager.isBlueZAvailable {
            logger.notice("bluetoothd is not running: start it with `sudo systemctl start bluetooth`. Waiting for it.")
        } else if manager.devices.isEmpty {
            logger.notice("""
                no paired TAP device found. Switch the TAP on nearby and run `tap-uinput pair` \
                (or pair it in your desktop's Bluetooth settings). It is picked up as soon as it is \
                paired; no restart needed.
                """)
        }
    }

    // MARK: Keymap and shutdown

    /// Reads `hands.conf` and every keymap file again (SIGHUP, the file watcher, `Reload`).
    /// Errors also go to `selector.onError`, changes to `onChange`.
    func reloadKeymap() throws(KeymapError) {
        loadHandAssignments()
        try selector.reload()
    }

    /// Reads `hands.conf` (bounded; bad lines are logged and skipped) into the driver.
    func loadHandAssignments() {
        var problems: [String] = []
        let assignments = HandAssignments.load(path: options.configPaths.handsFile, problems: &problems)
        for problem in problems { logger.warning("\(problem)") }
        driver.setHandAssignments(assignments)
    }

    // MARK: Control, focus, keymap files

    private func startControl() throws(DaemonError) {
        guard let bus = options.sessionBus else { return }
        do {
            let connection = try DBusConnection(bus: bus, loop: loop)
            control = try ControlService(connection: connection, handler: self)
            startNotifications(on: connection)
            if FocusDetection.currentDesktops(environment: FocusDetection.processEnvironment()).contains("kde") {
                kdeLayoutWatcher = KDELayoutWatcher(connection: connection) { [unowned self] in
                    self.pushedLayout = $0
                    self.layoutChanged()
                }
            }
        } catch where error.name == "org.freedesktop.DBus.Error.AddressInUse" {
            throw DaemonError("tap-uinput is already running for this user (it owns org.tapuinput.Daemon on the session bus); "
                              + "stop it first, e.g. `systemctl --user stop tap-uinput`")
        } catch {
            logger.warning("no control interface on the session bus (\(error)): `tap-uinput status` and the GNOME/KDE focus scripts cannot reach this daemon")
        }
    }

    private func startNotifications(on connection: DBusConnection) {
        guard options.notifications.enabled else { return }
        notifications = DaemonNotifications(notifier: DesktopNotifier(connection: connection, logger: LogSetup.logger("control")),
                                            options: options.notifications, loop: loop) { [unowned self] in
            self.manager?.devices ?? []
        }
        // A file broken before the start is news as much as one broken by an edit later.
        if let error = selector.currentError { notifications?.keymapError(error) }
    }

    private func startFocus() {
        let environment = FocusDetection.processEnvironment()
        for source in FocusDetection.availableSources(environment: environment) {
            if let layoutSource = source as? LayoutReporting {
                layoutSource.onLayoutChange = { [unowned self] in
                    self.desktopLayout = $0
                    self.layoutChanged()
                }
            }
            do {
                try source.start(on: loop) { [unowned self] in self.focusChanged($0) }
                focusSource = source
                logger.info("focus from \(source.name)")
                break
            } catch {
                logger.info("\(error)")
            }
        }
        if focusSource == nil, let desktop = FocusDetection.pushOnlyDesktop(environment: environment) {
            logger.notice("\(desktop): install the focus \(desktop == "gnome" ? "extension" : "script") for per-application keymaps (docs/focus.md)")
        }
        try? pushedFocus.start(on: loop) { [unowned self] in self.focusChanged($0) }
    }

    /// The desktop's layout (from the focus connection, else pushed by its extension) wins over
    /// localed's: it follows the user's live switches. The driver itself keeps `--layout` and a
    /// keymap's own layout above all of them.
    func layoutChanged() {
        driver.setLayout(desktopLayout ?? pushedLayout ?? localedLayout ?? .fallback)
    }

    private func focusChanged(_ info: FocusInfo) {
        control?.focusChanged(appID: info.appID, title: info.title)   // before the KeymapChanged it may cause
        selector.focusChanged(info)
    }

    private func startKeymapWatcher() {
        do {
            // hands.conf too: an edit by hand takes effect like one by `pair --role`.
            keymapWatcher = try KeymapWatcher(directories: selector.catalog.watchDirectories, loop: loop,
                                              otherNames: [HandAssignments.fileName]) { [unowned self] changed in
                // hands.conf alone changes roles only: the keymaps need not be read again.
                if changed == [self.options.configPaths.handsFile] { self.loadHandAssignments() } else { try? self.reloadKeymap() }
            }
        } catch {
            logger.warning("\(error): keymap changes need `tap-uinput reload`")
        }
    }

    /// What SIGTERM leads to: release everything, then put the devices back in Text mode.
    func shutdown() {
        stopping = true
        driver.releaseAll(reason: "exit")
        guard let manager else { return }
        var stopped = false
        manager.stop(restoreTextMode: options.restoreTextModeOnExit) { stopped = true }
        // Let the Text-mode writes go out before the process ends.
        loop.run(until: { stopped }, timeoutMilliseconds: 3000)
        driver.releaseAll(reason: "exit")   // a deadline may have fired meanwhile
    }
}

/// The daemon cannot start; ``description`` says why and what to do.
public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
