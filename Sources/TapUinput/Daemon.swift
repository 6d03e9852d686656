import ChordMap
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
/// - A device disconnects, the adapter powers off, logind announces suspend, the system bus
///   goes away: release everything. The bus is reconnected with backoff.
public final class Daemon {
    public struct Options {
        /// `--keymap`; nil = the user's keymap file if it exists, else the built-in.
        public var keymapPath: String?
        public var uinputPath = "/dev/uinput"
        public var systemBus: DBusConnection.Bus = .system
        public var manager = TapManager.Options()
        public var restoreTextModeOnExit = true
        public var configPaths = ConfigPaths()
        public init() {}
    }

    private let options: Options
    private let logger: Logger
    let loop: EventLoop
    private let driver: EngineDriver
    private var systemBus: DBusConnection?
    private var manager: TapManager?
    private var sleepWatcher: SleepWatcher?
    private var busRetryMilliseconds = 500

    /// Loads the keymap and creates the uinput devices.
    ///
    /// - Parameter sink: where input events go; nil (the default) creates the two uinput
    ///   devices. Tests and the benchmark pass a ``RecordingSink`` where there is no uinput.
    /// - Throws: ``ChordMap/KeymapError`` or ``UinputError``, both with messages that say
    ///   what to do; the caller prints them and exits non-zero.
    public init(options: Options, sink: EventSink? = nil, logger: Logger = LogSetup.logger("daemon")) throws {
        self.options = options
        self.logger = logger
        loop = try EventLoop()
        let loaded = try LoadedKeymap.load(explicitPath: options.keymapPath, paths: options.configPaths)
        logger.info("keymap: \(loaded.keymap.name) (\(loaded.file ?? "built-in"))")
        let writer = FrameWriter(sink: try sink ?? UinputSink(uinputPath: options.uinputPath))
        driver = EngineDriver(keymap: loaded.keymap, commands: loaded.commands, writer: writer, loop: loop,
                              logger: LogSetup.logger("engine"))
        driver.onDeviceCommand = { [unowned self] in self.perform($0) }
    }

    /// Runs until SIGTERM or SIGINT. Returns the process exit code.
    public func run() throws -> Int32 {
        try loop.handleSignals([SIGTERM, SIGINT, SIGHUP, SIGCHLD]) { [unowned self] signo in
            switch signo {
            case SIGHUP: self.reloadKeymap()
            case SIGCHLD: CommandRunner.reapChildren()
            default:
                self.logger.info("signal \(signo): stopping")
                self.loop.stop()
            }
        }
        connectSystemBus()
        logger.info("ready")
        loop.schedule(afterMilliseconds: Self.firstRunHintDelayMilliseconds) { [unowned self] in self.hintIfNothingToDo() }
        loop.run()
        shutdown()
        return 0
    }

    // MARK: System bus

    private func connectSystemBus() {
        do {
            let bus = try DBusConnection(bus: options.systemBus, loop: loop)
            bus.onDisconnected = { [unowned self] in self.systemBusLost() }
            let manager = TapManager(connection: bus, loop: loop, options: options.manager, logger: LogSetup.logger("ble"))
            manager.onEvent = { [unowned self] in self.handle($0) }
            sleepWatcher = SleepWatcher(connection: bus) { [unowned self] start in
                if start { self.driver.releaseAll(reason: "suspend") }
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
        sleepWatcher = nil
        manager = nil
        systemBus = nil
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
            if let e = InputTranslation.event(device: device, input) { driver.handle(e) }
        case .connected(let info):
            logger.info("connected: \(info)")
        case .disconnected(let id, let reason):
            logger.info("disconnected: \(id) (\(reason))")
            driver.releaseAll(reason: "device \(id) disconnected")
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
            manager.vibrate(durations, device: device)
        case .setInputMode(let device, let name):
            if let mode = InputMode(parsing: name) { manager.setMode(mode, device: device) }
        case .setXRState(let device, let name):
            if let state = XRState(keymapName: name) { manager.setXRState(state, device: device) }
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
                no paired TAP device found. Switch the TAP on and pair it once: `bluetoothctl`, then \
                `scan on`, `pair ADDRESS`, `trust ADDRESS`. It is picked up as soon as it is paired; \
                no restart needed.
                """)
        }
    }

    // MARK: Keymap and shutdown

    private func reloadKeymap() {
        do {
            let loaded = try LoadedKeymap.load(explicitPath: options.keymapPath, paths: options.configPaths)
            driver.replaceKeymap(loaded.keymap, commands: loaded.commands)
            logger.info("keymap reloaded: \(loaded.keymap.name)")
        } catch {
            logger.error("keymap reload failed, keeping the running keymap:\n\(error)")
        }
    }

    private func shutdown() {
        driver.releaseAll(reason: "exit")
        guard let manager else { return }
        var stopped = false
        manager.stop(restoreTextMode: options.restoreTextModeOnExit) { stopped = true }
        // Let the Text-mode writes go out before the process ends.
        loop.run(until: { stopped }, timeoutMilliseconds: 3000)
    }
}
