import DBus
import EventLoop
import Glibc
import Logging

/// `tap-uinput tray`: a StatusNotifierItem for the daemon, a separate client so the daemon
/// itself stays small and needs no desktop.
///
/// Contract:
/// - Exports ``StatusNotifierItemObject`` and its ``DBusMenuObject`` menu under the name
///   `org.kde.StatusNotifierItem-<pid>-<n>`, and registers with
///   `org.kde.StatusNotifierWatcher.RegisterStatusNotifierItem` whenever a watcher appears:
///   at start if one runs, and again each time the watcher restarts (NameOwnerChanged).
/// - Follows the daemon through its control signals and `Status()` replies only; nothing polls.
///   A tap schedules one `Status()` ``Options/refreshDelayMilliseconds`` later (taps change
///   locks and battery, which have no signal of their own), however many taps follow: an idle
///   TAP costs nothing, a typing one about three requests a second.
/// - Survives the daemon leaving and coming back (NameOwnerChanged): it shows "not running"
///   meanwhile and asks for a fresh status when it returns.
/// - Every request to the daemon is asynchronous with a timeout, so a hung daemon never
///   stalls the menu; a failure shows in the tooltip.
///
/// Everything runs on one ``EventLoop``: no threads.
public final class Tray {
    public struct Options {
        public var bus: DBusConnection.Bus = .session
        /// The program (and leading arguments) that opens the cheat sheet page.
        public var opener = ["xdg-open"]
        /// Where the cheat sheet is written; nil: nowhere (the menu item then reports why).
        public var runtimeDirectory: String? = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        /// The delay between a tap and the one `Status()` that picks up its locks and battery.
        public var refreshDelayMilliseconds = 300
        /// How long a daemon request may take.
        public var requestTimeoutMilliseconds = 10_000
        public init() {}
    }

    public static let watcherName = "org.kde.StatusNotifierWatcher"
    public static let watcherPath = "/StatusNotifierWatcher"
    public static let menuPath = "/MenuBar"
    nonisolated(unsafe) private static var instances = 0

    /// The well-known name the item is registered under.
    public let busName: String
    public let client: ControlClient
    public var connection: DBusConnection { client.connection }
    public private(set) var state = TrayState()
    /// Successful `RegisterStatusNotifierItem` calls so far (one per watcher start).
    public private(set) var registrations = 0
    /// Runs for the menu's Quit; the default stops the loop.
    public var onQuit: (() -> Void)?

    private let options: Options
    private let log = LogSetup.logger("tray")
    private let ids = TrayMenuIDs()
    private let item: StatusNotifierItemObject
    private let menu: DBusMenuObject
    private var subscriptions: [DBusConnection.Subscription] = []
    private var refreshTimer: EventLoop.Timer?
    private var refreshing = false
    private var refreshAgain = false
    private var stopped = false

    /// Connects, exports the item and the menu, and takes the item's bus name.
    /// - Throws: ``TrayError`` when the bus cannot be reached or the name cannot be taken.
    public init(options: Options = Options(), loop: EventLoop) throws(TrayError) {
        self.options = options
        do {
            client = try ControlClient(bus: options.bus, loop: loop)
        } catch {
            throw TrayError(error.description)
        }
        client.timeoutMilliseconds = options.requestTimeoutMilliseconds
        Self.instances += 1
        busName = "org.kde.StatusNotifierItem-\(getpid())-\(Self.instances)"
        let connection = client.connection
        do {
            menu = try DBusMenuObject(connection: connection, path: Self.menuPath, root: TrayMenu.build(state, ids: ids))
            item = try StatusNotifierItemObject(connection: connection, menuPath: Self.menuPath, presentation: state.presentation)
            try connection.requestName(busName)
        } catch {
            connection.close()
            throw TrayError("cannot offer the tray icon on the session bus: \(error)")
        }
        menu.onAction = { [weak self] in self?.perform($0) }
    }

    deinit { stop() }

    /// Starts following the daemon and the watcher; the loop does the rest.
    public func start() {
        subscriptions = client.watch(daemon: { [weak self] in self?.daemon(running: $0) }) { [weak self] in self?.handle($0) }
        subscriptions.append(connection.watchNameOwner(Self.watcherName) { [weak self] owner in
            guard let self else { return }
            if owner != nil { self.register() } else { self.log.info("no StatusNotifierWatcher: waiting for a tray host") }
        })
    }

    /// Stops watching and closes the connection (the item leaves the bus with it).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if let t = refreshTimer { client.loop.cancel(t) }
        for s in subscriptions { connection.unsubscribe(s) }
        subscriptions.removeAll()
        item.close()
        menu.close()
        connection.close()
    }

    /// The command's main loop: runs until Quit, SIGINT or SIGTERM, reaping the viewers it starts.
    public func run() throws -> Int32 {
        let loop = client.loop
        try loop.handleSignals([SIGINT, SIGTERM, SIGCHLD]) { signo in
            if signo == SIGCHLD { CommandRunner.reapChildren() } else { loop.stop() }
        }
        var lost = false
        connection.onDisconnected = { [weak self] in
            self?.log.error("the session bus went away")
            lost = true
            loop.stop()
        }
        start()
        loop.run()
        stop()
        return lost ? 1 : 0
    }

    // MARK: Watcher

    private func register() {
        let call = DBusMessage.methodCall(destination: Self.watcherName, path: Self.watcherPath, interface: Self.watcherName,
                                          method: "RegisterStatusNotifierItem", arguments: [.string(busName)])
        connection.call(call, timeoutMilliseconds: options.requestTimeoutMilliseconds) { [weak self] reply in
            guard let self else { return }
            switch reply {
            case .success:
                self.registrations += 1
                self.log.info("registered \(self.busName) with the StatusNotifierWatcher")
            case .failure(let e):
                self.log.warning("the StatusNotifierWatcher refused the tray icon: \(e)")
            }
        }
    }

    // MARK: Daemon

    private func daemon(running: Bool) {
        if let t = refreshTimer { client.loop.cancel(t); refreshTimer = nil }
        if running {
            state.daemonRunning = true
            refresh()
        } else {
            state = TrayState()   // nothing known survives the daemon
        }
        publish()
    }

    private func handle(_ event: ControlEvent) {
        switch event {
        case .layerChanged(let device, let layer):
            // Shown at once from the signal; the refresh then brings the locks.
            if let i = state.status.devices.firstIndex(where: { $0.id == device }) { state.status.devices[i].layer = layer }
            publish()
            scheduleRefresh()
        case .keymapChanged(let name, let file):
            state.status.keymap = name
            state.status.keymapFile = file
            publish()
            refresh()
        case .keymapError(let message):
            state.keymapError = message
            publish()
            refresh()
        case .deviceConnected, .deviceDisconnected:
            refresh()
        case .tap:
            scheduleRefresh()
        case .focusChanged:
            break   // a keymap switch it causes comes as KeymapChanged
        }
    }

    /// One `Status()` soon, however many events ask for it meanwhile.
    private func scheduleRefresh() {
        guard refreshTimer == nil else { return }
        refreshTimer = client.loop.schedule(afterMilliseconds: options.refreshDelayMilliseconds) { [weak self] in
            self?.refreshTimer = nil
            self?.refresh()
        }
    }

    /// Asks for `Status()` now; with one in flight, asks again once it is answered (its answer
    /// may predate what prompted this one).
    private func refresh() {
        guard !refreshing else { refreshAgain = true; return }
        refreshing = true
        client.send(ControlInterface.statusMethod) { [weak self] reply in
            guard let self else { return }
            self.refreshing = false
            switch reply {
            case .success(let args):
                if let status = args.first.flatMap(ControlStatus.init(dbus:)), self.state.daemonRunning {
                    self.state.status = status
                    if status.keymapErrors.isEmpty { self.state.keymapError = nil }
                    self.publish()
                }
            case .failure(let e):
                self.log.warning("Status failed: \(e)")
            }
            if self.refreshAgain {
                self.refreshAgain = false
                self.refresh()
            }
        }
    }

    private func publish() {
        item.update(state.presentation)
        menu.update(TrayMenu.build(state, ids: ids))
    }

    // MARK: Actions

    /// Runs a menu action. Daemon requests answer later; their failures land in the tooltip.
    func perform(_ action: TrayAction) {
        log.debug("menu: \(action)")
        state.actionError = nil
        switch action {
        case .reload:
            client.send(ControlInterface.reloadMethod) { [weak self] reply in
                if case .failure(let e) = reply { self?.state.keymapError = e.description }
                self?.refresh()
            }
        case .setKeymap(let path):
            request(ControlInterface.setKeymapMethod, [.string(path)], failure: "cannot switch the keymap")
        case .vibrate(let device):
            request(ControlInterface.vibrateMethod, ControlClient.vibrateArguments(device: device, durationsMs: TrayMenu.findPattern),
                    failure: "cannot vibrate \(device)")
        case .openCheatsheet:
            let sheet = TrayCheatsheet(directory: options.runtimeDirectory, opener: options.opener)
            do throws(TrayError) {
                try sheet.open(keymapFile: state.status.keymapFile)
            } catch {
                fail(error.description)
            }
        case .quit:
            if let onQuit { onQuit() } else { client.loop.stop() }
        }
        publish()
    }

    private func request(_ method: String, _ arguments: [DBusValue], failure: String) {
        client.send(method, arguments) { [weak self] reply in
            if case .failure(let e) = reply { self?.fail("\(failure): \(e)") }
            self?.refresh()
        }
    }

    private func fail(_ message: String) {
        log.warning("\(message)")
        state.actionError = message
        publish()
    }
}
