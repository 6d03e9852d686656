import DBus
import EventLoop
import Logging

/// Finds paired Taps through BlueZ and keeps each one connected, subscribed and in its mode.
///
/// ```swift
/// let bus = try DBusConnection(bus: .system, loop: loop)
/// let taps = TapManager(connection: bus, loop: loop, options: .init(), logger: LogSetup.logger("ble"))
/// taps.onEvent = { event in … }
/// taps.start()
/// loop.run()
/// ```
///
/// A Tap is a paired BlueZ device whose `UUIDs` include the TAP service, or, failing that,
/// whose name starts with "Tap". Each gets a session that connects it when needed, waits for
/// `ServicesResolved`, maps the characteristics (v2 if `c3ff000e` exists), subscribes
/// (`AcquireNotify`, falling back to `StartNotify`), reads HW/FW revisions and battery,
/// writes the mode (NUS writes serialised, ≥ ``Options/writeSpacingMilliseconds`` apart)
/// and refreshes it every ``Options/modeRefreshMilliseconds``. Lost links are retried with
/// exponential backoff; bluetoothd leaving and returning, and adapters powering off and
/// on, are followed.
///
/// Everything runs on `loop`; ``onEvent`` is called from it. The notification path (socket
/// readable -> decode -> ``onEvent``) touches neither D-Bus nor the heap for fixed-size inputs.
public final class TapManager {
    public let connection: DBusConnection
    public let loop: EventLoop
    public private(set) var options: Options
    let logger: Logger
    let model: BlueZObjectModel
    private var sessions: [String: TapDeviceSession] = [:]   // by device object path
    private var adapterPowered: [String: Bool] = [:]
    /// Between ``start()`` and ``stop(restoreTextMode:completion:)``.
    public private(set) var isRunning = false

    /// Receives every event, on the loop.
    public var onEvent: ((TapEvent) -> Void)?

    public init(connection: DBusConnection, loop: EventLoop, options: Options = Options(), logger: Logger) {
        self.connection = connection
        self.loop = loop
        self.options = options
        self.logger = logger
        self.model = BlueZObjectModel(connection: connection, logger: logger)
        model.onAvailabilityChanged = { [unowned self] up in self.availabilityChanged(up) }
        model.onInterfacesAdded = { [unowned self] path, ifaces in self.interfacesAdded(path, ifaces) }
        model.onInterfacesRemoved = { [unowned self] path, ifaces in self.interfacesRemoved(path, ifaces) }
        model.onPropertiesChanged = { [unowned self] path, iface, changed in self.propertiesChanged(path, iface, changed) }
        model.onCharacteristicValue = { [unowned self] path, value in
            for s in self.sessions.values { if let c = s.propertyChannels[path] { c.deliver(value); return } }
        }
    }

    /// Starts following BlueZ; devices are picked up as soon as it answers.
    public func start() {
        guard !isRunning else { return }
        isRunning = true
        model.start()
    }

    /// Stops managing devices. With `restoreTextMode`, first writes Text mode to every ready
    /// device (the SDKs do this when the app goes to the background). `completion` runs once
    /// everything is written and torn down (at once if nothing needs writing); run the loop
    /// until then.
    /// Devices stay connected.
    public func stop(restoreTextMode: Bool, completion: (() -> Void)? = nil) {
        guard isRunning else { completion?(); return }
        isRunning = false
        let ready = sessions.values.filter { $0.state == .ready }
        var pending = 1
        let finish = { [weak self] in
            pending -= 1
            guard pending == 0 else { return }
            self?.finishStop()
            completion?()
        }
        if restoreTextMode {
            for s in ready {
                pending += 1
                s.restoreText { finish() }
            }
        }
        finish()
    }

    private func finishStop() {
        model.stop()
        for s in sessions.values {
            let wasReady = s.state == .ready
            s.teardown()
            if wasReady { emit(.disconnected(id: s.id, reason: "stopped")) }
        }
        sessions.removeAll()
    }

    /// Whether bluetoothd is on the bus and its objects are loaded.
    public var isBlueZAvailable: Bool { model.isAvailable }

    /// BlueZ has answered and no device is in the middle of connecting or setting up: every
    /// device is ready, idle, or waiting to retry after a failure. For one-shot tools.
    public var isSettled: Bool {
        model.isAvailable && sessions.values.allSatisfy { [.idle, .ready, .waitingRetry].contains($0.state) }
    }

    /// Every managed Tap, connected or not, sorted by id.
    public var devices: [TapDeviceInfo] { sessions.values.map(\.info).sorted { $0.id < $1.id } }

    /// Malformed or short notifications dropped so far, per device.
    public var malformedPacketCounts: [DeviceID: Int] {
        Dictionary(sessions.values.map { ($0.id, $0.malformedPackets) }, uniquingKeysWith: +)
    }

    // MARK: Commands

    /// Sets the mode of one device (overriding the default) or, with nil, of every device
    /// (clearing overrides and setting the default); written at once to ready devices.
    /// `completion` (optional) gets whether every write to a ready target succeeded (false
    /// if there was none).
    public func setMode(_ mode: InputMode, device: DeviceID?, completion: ((Bool) -> Void)? = nil) {
        let device = device?.uppercased()   // BlueZ spells addresses in upper case
        if let device {
            options.deviceModes[device] = mode
        } else {
            options.deviceModes.removeAll()
            options.defaultMode = mode
        }
        let targets = sessions(device).filter { $0.state == .ready }
        guard !targets.isEmpty else { if let completion { loop.post { completion(false) } }; return }
        var pending = targets.count
        var allOK = true
        for s in targets {
            s.apply(mode) { ok in
                allOK = allOK && ok
                pending -= 1
                if pending == 0 { completion?(allOK) }
            }
        }
    }

    /// Changes the default mode; with `applyNow`, writes it to ready devices without an override.
    public func setDefaultMode(_ mode: InputMode?, applyNow: Bool) {
        options.defaultMode = mode
        guard applyNow, let mode else { return }
        for s in sessions.values where options.deviceModes[s.id] == nil { s.apply(mode) }
    }

    /// Sets the TapXR input type (refreshed with the mode); written at once to ready TapXRs.
    public func setXRState(_ state: XRState?, device: DeviceID? = nil) {
        let device = device?.uppercased()
        if let device { options.deviceXRStates[device] = state } else { options.xrState = state }
        guard let state else { return }
        for s in sessions(device) where s.info.isTapXR { s.applyXRState(state) }
    }

    /// Plays a haptic sequence (alternating on/off milliseconds, at most 18) on one device or all.
    /// `completion` gets whether every write succeeded.
    public func vibrate(_ durations: [Int], device: DeviceID? = nil, completion: ((Bool) -> Void)? = nil) {
        let targets = sessions(device).filter { $0.state == .ready }
        guard !targets.isEmpty else { loop.post { completion?(false) }; return }
        var pending = targets.count
        var allOK = true
        for s in targets {
            s.vibrate(durations) { ok in
                allOK = allOK && ok
                pending -= 1
                if pending == 0 { completion?(allOK) }
            }
        }
    }

    private func sessions(_ device: DeviceID?) -> [TapDeviceSession] {
        sessions.values.filter { device == nil || $0.id.equalsIgnoringCase(device!) }
    }

    // MARK: Events

    func emit(_ e: TapEvent) { onEvent?(e) }

    private func availabilityChanged(_ up: Bool) {
        if up {
            for a in model.adapters {
                adapterPowered[a.path] = a.powered
                emit(.adapterPowered(a.powered))
            }
            for d in model.devices { consider(d.path) }
        } else {
            for s in sessions.values { s.lost(reason: "bluetoothd went away") }
            for s in sessions.values { s.teardown() }
            sessions.removeAll()
            adapterPowered.removeAll()
        }
    }

    /// Creates a session for `path` if it is a paired Tap we should manage, then evaluates it.
    private func consider(_ path: String) {
        guard isRunning, let d = model.device(at: path) else { return }
        if let s = sessions[path] { s.evaluate(); return }
        guard d.isTap, d.paired, let address = d.address else { return }
        if let only = options.devices, !only.contains(where: { $0.equalsIgnoringCase(address) }) { return }
        let s = TapDeviceSession(id: address, path: path, manager: self, device: d)
        sessions[path] = s
        logger.info("found paired Tap", metadata: ["device": "\(address)", "name": "\(s.info.name)"])
        s.evaluate()
    }


    private func interfacesAdded(_ path: String, _ ifaces: [String]) {
        if ifaces.contains(BlueZ.adapter1), let a = model.adapter(at: path) {
            adapterPowered[path] = a.powered
            emit(.adapterPowered(a.powered))
        }
        if ifaces.contains(BlueZ.device1) { consider(path) }
    }

    private func interfacesRemoved(_ path: String, _ ifaces: [String]) {
        if ifaces.contains(BlueZ.device1), let s = sessions.removeValue(forKey: path) {
            s.lost(reason: "device removed")
            s.teardown()
        }
        if ifaces.contains(BlueZ.adapter1) { adapterPowered[path] = nil }
    }

    private func propertiesChanged(_ path: String, _ iface: String, _ changed: [String: DBusValue]) {
        switch iface {
        case BlueZ.device1:
            consider(path)
        case BlueZ.battery1:
            if let s = sessions[path], let p = changed["Percentage"]?.int { s.batteryChanged(p) }
        case BlueZ.adapter1:
            guard let powered = changed["Powered"]?.bool, adapterPowered[path] != powered else { return }
            adapterPowered[path] = powered
            emit(.adapterPowered(powered))
            if powered {
                for s in sessions.values where model.device(at: s.path)?.adapter == path { s.retryNow() }
            }
        default:
            break
        }
    }
}

extension String {
    fileprivate func equalsIgnoringCase(_ other: String) -> Bool { lowercased() == other.lowercased() }
}
