import ChordMap
import EventLoop
import KeyboardLayout
import Logging
import TapBLE

/// Runs the pure ``ChordMap/Engine`` on the daemon's loop.
///
/// It is the whole hot path after decoding: ``handle(_:)`` steps the engine with the clock's
/// time, writes every frame through the ``FrameWriter`` at once, hands device commands to
/// ``onDeviceCommand``, and keeps exactly one deadline armed on the ``EngineClock`` for the
/// engine's next multi-tap deadline (none when nothing is pending, so an idle daemon never
/// wakes). The daemon's clock is the loop's (``LoopClock``); tests pass a virtual one.
///
/// Keymap changes (reload, per-application switch) and layout changes wait for the engine to be
/// idle, so no chord is split between two keymaps or layouts, and release everything before they
/// take effect.
public final class EngineDriver {
    /// A command for the BLE side, produced by a keymap action.
    public enum DeviceCommand: Equatable, Sendable {
        case vibrate(device: String, durationsMs: [Int])
        case setInputMode(device: String, mode: InputMode)
        case setXRState(device: String, state: XRState)
    }

    /// Counters for `status` and the benchmark.
    public struct Statistics: Sendable, Equatable {
        public var events = 0
        public var frames = 0
        public var writeErrors = 0
        public var commandsRefused = 0
    }

    public var onDeviceCommand: ((DeviceCommand) -> Void)?
    /// Called when a device's active layer changes (monitor, control interface).
    public var onLayerChange: ((String, String) -> Void)?
    public private(set) var statistics = Statistics()

    var engine: Engine
    private let writer: FrameWriter
    private let clock: EngineClock
    let logger: Logger
    private var commands: CommandRunner
    private var pendingPlan: KeymapPlan?
    /// The command policy of each device that runs a keymap of its own (its keys are those
    /// devices, so a new plan can send them back to the base keymap).
    private var deviceCommands: [DeviceID: CommandRunner] = [:]
    /// The layout the desktop (or `--layout`) reports, and the one characters are typed for now.
    var reportedLayout: LayoutReport
    public internal(set) var layout: LayoutReport
    var pendingCharacters: (report: LayoutReport, map: CharacterMap)?
    /// Connected devices and their Bluetooth names, whose roles ``refreshRoles()`` recomputes:
    /// the daemon's ``KeymapSelector/devices``, which already keeps them.
    public var connectedDevices: () -> [DeviceID: String] = { [:] }
    /// The roles `tap-uinput pair --role` assigned (`hands.conf`), below the keymap's `[hands]`.
    public internal(set) var handAssignments = HandAssignments()
    /// Set when the assignments changed: roles are recomputed at the next idle point.
    var pendingRoles = false

    /// Starts typing characters for `layout` (US if it cannot be compiled).
    public init(keymap: Keymap, layout: LayoutReport = .fallback, commands: CommandRunner, writer: FrameWriter,
                clock: EngineClock, logger: Logger) {
        let effective = Self.effectiveLayout(reported: layout, keymap: keymap)
        var characters: CharacterMap
        do {
            characters = try CharacterMap(layout: effective)
            self.layout = effective
        } catch {
            logger.error("layout \(effective.summary) from \(effective.origin): \(error); typing for US")
            characters = (try? CharacterMap(layout: .fallback)) ?? .empty
            self.layout = .fallback
        }
        self.reportedLayout = layout
        self.engine = Engine(keymap: keymap, characters: characters)
        self.commands = commands
        self.writer = writer
        self.clock = clock
        self.logger = logger
        logger.info("typing for layout \(characters.name) (\(self.layout.origin))")
        logUntypeable(engine.untypeable)
    }

    /// A driver on `loop`'s clock and timer (the daemon's).
    public convenience init(keymap: Keymap, layout: LayoutReport = .fallback, commands: CommandRunner, writer: FrameWriter,
                            loop: EventLoop, logger: Logger) {
        self.init(keymap: keymap, layout: layout, commands: commands, writer: writer, clock: LoopClock(loop: loop), logger: logger)
    }

    /// Feeds one decoded event and performs what the engine returns.
    public func handle(_ event: InputEvent) {
        statistics.events += 1
        apply(engine.step(event, at: clock.now()))
    }

    /// Releases every key and button, drops pending taps and latches. Used on suspend, adapter
    /// off, bus loss and exit (a device's own disconnect is ``disconnect(device:reason:)``). Never throws: a failed write means the uinput
    /// device is gone, and the kernel released its keys with it.
    public func releaseAll(reason: String) {
        logger.debug("release all", metadata: ["reason": "\(reason)"])
        for output in engine.releaseAll() { perform(output) }
        do { try writer.releaseAll() } catch { statistics.writeErrors += 1 }
        rearm(nil)
        // Now idle: a keymap switch that waited for a pending tap or a held button happens
        // here, so the first tap after a reconnect or resume uses the right keymap.
        applyPendingKeymapIfIdle()
    }

    /// Installs a ``KeymapPlan`` (per-application / per-device selection) at the next idle point.
    public func apply(_ plan: KeymapPlan) {
        pendingPlan = plan
        applyPendingKeymapIfIdle()
    }

    /// A snapshot of `device`'s engine state, for `Status`.
    public func status(of device: String) -> DeviceStatus { engine.status(of: device) }

    /// The active layer of `device`, for status queries.
    public func activeLayer(of device: String) -> String { engine.activeLayer(of: device) }

    private func apply(_ result: StepResult) {
        for output in result.outputs { perform(output) }
        rearm(result.nextDeadline)
        applyPendingKeymapIfIdle()
    }

    func perform(_ output: Output) {
        switch output {
        case .frame(let f):
            statistics.frames += 1
            do {
                try writer.write(pressed: f.pressed, relX: f.relX, relY: f.relY,
                                 wheel: f.wheel, hwheel: f.hwheel)
            } catch {
                statistics.writeErrors += 1
                logger.error("uinput write failed: \(error)")
            }
        case .vibrate(let device, let durations):
            onDeviceCommand?(.vibrate(device: device, durationsMs: durations))
        case .setInputMode(let device, let name):
            // The parser accepts only names that translate (a test checks every one): a nil
            // here is a bug, said loudly rather than dropped.
            guard let mode = InputMode(keymapName: name) else { logger.error("input-mode(\(name)): no such mode"); return }
            onDeviceCommand?(.setInputMode(device: device, mode: mode))
        case .setXRState(let device, let name):
            guard let state = XRState(keymapName: name) else { logger.error("xr-state(\(name)): no such state"); return }
            onDeviceCommand?(.setXRState(device: device, state: state))
        case .run(let device, let argv):
            // The policy of the keymap that produced the command: a per-device keymap file is
            // checked on its own, never under the base keymap's approval.
            do { try (deviceCommands[device] ?? commands).run(argv) } catch {
                statistics.commandsRefused += 1
                logger.warning("command \(argv) not run: \(error)")
            }
        case .layerChanged(let device, let layer):
            onLayerChange?(device, layer)
        }
    }

    /// Keeps the clock armed at the engine's next deadline.
    func rearm(_ deadline: EngineTime?) {
        clock.arm(deadline) { [unowned self] in self.apply(self.engine.timeout(at: self.clock.now())) }
    }

    func applyPendingKeymapIfIdle() {
        // Called after every event: the common case (nothing pending) must not walk the devices.
        guard pendingPlan != nil || pendingCharacters != nil || pendingRoles, engine.isIdle else { return }
        if let plan = pendingPlan {
            pendingPlan = nil
            do { try writer.releaseAll() } catch { statistics.writeErrors += 1 }
            var missing = engine.replaceKeymap(plan.base.keymap)
            for id in Set(deviceCommands.keys).union(plan.perDevice.keys) {
                missing += engine.setKeymap(plan.perDevice[id]?.keymap, for: id)
            }
            deviceCommands = plan.perDevice.mapValues(\.commands)
            commands = plan.base.commands
            logger.info("keymap switched to \(plan.base.keymap.name)")
            // The new keymap's [hands] may name other devices: every role is looked up again.
            pendingRoles = true
            // The new keymap may name a layout of its own.
            prepareLayout(reportedLayout)
            if pendingCharacters == nil { logUntypeable(missing) }
        }
        if let (report, map) = pendingCharacters {
            pendingCharacters = nil
            do { try writer.releaseAll() } catch { statistics.writeErrors += 1 }
            layout = report
            logger.info("typing for layout \(map.name) (\(report.origin))")
            logUntypeable(engine.setCharacters(map))
        }
        if pendingRoles {
            pendingRoles = false
            refreshRoles()
        }
    }

}
