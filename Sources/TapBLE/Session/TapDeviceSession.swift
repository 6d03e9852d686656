import DBus
import EventLoop
import Logging

/// One paired Tap: connects it, resolves its characteristics, subscribes, writes and
/// refreshes its mode, decodes its notifications, and reconnects with backoff.
///
/// States: idle -> connecting -> resolving -> settingUp -> ready; any loss tears down to
/// waitingRetry (or idle). Every asynchronous callback carries the ``generation`` it was
/// started in and is ignored once a teardown has moved on.
final class TapDeviceSession {
    enum State: Equatable { case idle, connecting, resolving, settingUp, ready, waitingRetry }

    let id: DeviceID
    let path: String
    unowned let manager: TapManager
    var logger: Logger
    var state: State = .idle
    var generation = 0
    private var backoff: Int
    private var retryTimer: EventLoop.Timer?
    var refreshTimer: EventLoop.Timer?
    private var resolveTimer: EventLoop.Timer?
    var info: TapDeviceInfo
    var chars: [String: GattCharacteristic1] = [:]
    var channels: [NotifyChannel] = []
    /// Characteristic path -> channel, for values arriving by PropertiesChanged.
    private(set) var propertyChannels: [String: NotifyChannel] = [:]
    let nusWriter: WriteQueue
    /// Notifications to inputs (the pure part of the hot path).
    var decoder: NotificationDecoder
    var malformedPackets: Int { decoder.malformedPackets }

    init(id: DeviceID, path: String, manager: TapManager, device: Device1) {
        self.id = id
        self.path = path
        self.manager = manager
        var l = manager.logger
        l[metadataKey: "device"] = "\(id)"
        self.logger = l
        backoff = manager.options.reconnectInitialMilliseconds
        nusWriter = WriteQueue(connection: manager.connection, loop: manager.loop, logger: l,
                               spacingMilliseconds: manager.options.writeSpacingMilliseconds, type: .request)
        info = TapDeviceInfo(id: id, name: device.alias ?? device.name ?? id, path: path, isPaired: device.paired,
                             isConnected: device.connected, isReady: false)
        decoder = NotificationDecoder(divertTapsInAirMouseState: manager.options.divertTapsInAirMouseState)
    }

    private var model: BlueZObjectModel { manager.model }
    var options: TapManager.Options { manager.options }
    private var device: Device1? { model.device(at: path) }
    private var adapterPowered: Bool {
        guard let a = device?.adapter else { return true }
        return model.adapter(at: a)?.powered ?? true
    }

    /// The mode this device should be in.
    var desiredMode: InputMode? { options.deviceModes[id] ?? options.defaultMode }

    // MARK: State machine

    /// Re-examines BlueZ's view of the device and moves the state machine.
    func evaluate() {
        guard let d = device else { return }
        info.name = d.alias ?? d.name ?? id
        info.isPaired = d.paired
        info.isConnected = d.connected
        if info.battery == nil || state != .ready { info.battery = model.batteryPercentage(of: path) ?? info.battery }
        switch state {
        case .settingUp, .ready, .resolving:
            if !d.connected { lost(reason: "link lost") ; return }
            if !d.paired { lost(reason: "unpaired") ; return }
            if state == .resolving && d.servicesResolved { setUp() }
        case .connecting:
            if d.connected && d.servicesResolved { setUp() }
        case .idle, .waitingRetry:
            if d.connected && d.servicesResolved && d.paired {
                cancelRetry()
                setUp()
            } else if d.connected && d.paired {
                cancelRetry()
                enterResolving()
            } else if state == .idle && options.autoConnect && d.paired && adapterPowered && manager.isRunning {
                connect()
            }
        }
    }

    private func connect() {
        state = .connecting
        generation += 1
        let gen = generation
        logger.info("connecting")
        Device1(path: path, properties: [:]).connect(on: manager.connection,
                                                     timeoutMilliseconds: options.connectTimeoutMilliseconds) { [weak self] r in
            guard let self, gen == self.generation, self.state == .connecting else { return }
            switch r {
            case .success:
                self.enterResolving()
                self.evaluate()
            case .failure(let e) where e.name == "org.bluez.Error.AlreadyConnected":
                self.enterResolving()
                self.evaluate()
            case .failure(let e) where e.name == "org.bluez.Error.InProgress":
                // BlueZ (or its HoG auto-connect) is already connecting: not a failure.
                self.logger.debug("connect already in progress")
                self.teardown()
                self.scheduleRetry()
            case .failure(let e):
                self.failed(reason: e.description)
            }
        }
    }

    /// Waits for `ServicesResolved`, giving up after the connect timeout.
    private func enterResolving() {
        state = .resolving
        let gen = generation
        if let t = resolveTimer { manager.loop.cancel(t) }
        resolveTimer = manager.loop.schedule(afterMilliseconds: options.connectTimeoutMilliseconds) { [weak self] in
            guard let self, gen == self.generation, self.state == .resolving else { return }
            self.resolveTimer = nil
            self.failed(reason: "services not resolved within \(self.options.connectTimeoutMilliseconds) ms")
        }
    }

    /// A connect or set-up attempt failed: report it and retry after the backoff.
    private func failed(reason: String) {
        logger.warning("connect failed: \(reason); retrying in \(backoff) ms")
        teardown()
        manager.emit(.connectFailed(id: id, reason: reason))
        scheduleRetry()
    }

    /// The link went down (or BlueZ went away) after it was up.
    func lost(reason: String) {
        let wasReady = state == .ready
        logger.notice("disconnected: \(reason)")
        teardown()
        if wasReady { manager.emit(.disconnected(id: id, reason: reason)) }
        scheduleRetry()
    }

    private func scheduleRetry() {
        cancelRetry()
        state = .waitingRetry
        guard options.autoConnect, manager.isRunning else { state = .idle; return }
        let delay = backoff
        backoff = min(backoff * 2, options.reconnectMaximumMilliseconds)
        retryTimer = manager.loop.schedule(afterMilliseconds: delay) { [weak self] in
            guard let self else { return }
            self.retryTimer = nil
            self.state = .idle
            self.evaluate()
        }
    }

    private func cancelRetry() {
        if let t = retryTimer { manager.loop.cancel(t); retryTimer = nil }
    }

    /// Retries at once with a fresh backoff (adapter powered on, bluetoothd back).
    func retryNow() {
        backoff = options.reconnectInitialMilliseconds
        if state == .waitingRetry { cancelRetry(); state = .idle }
        evaluate()
    }

    /// Drops subscriptions, timers and queued writes; bumps the generation.
    func teardown() {
        generation += 1
        let linkUp = device?.connected ?? false
        for c in channels { c.stop(linkUp: linkUp) }
        channels.removeAll()
        propertyChannels.removeAll()
        nusWriter.reset()
        if let t = refreshTimer { manager.loop.cancel(t); refreshTimer = nil }
        if let t = resolveTimer { manager.loop.cancel(t); resolveTimer = nil }
        cancelRetry()
        chars.removeAll()
        decoder.reset()
        info.isReady = false
        info.mode = nil
        state = .idle
    }

    // MARK: Set-up

    private func setUp() {
        if let t = resolveTimer { manager.loop.cancel(t); resolveTimer = nil }
        state = .settingUp
        generation += 1
        let gen = generation
        chars = Dictionary(model.characteristics(of: path).map { ($0.uuid, $0) }, uniquingKeysWith: { a, _ in a })
        let v2 = chars[TapUUID.v2Read] != nil
        info.protocolVersion = v2 ? .v2 : .v1
        let writeUUID = v2 ? TapUUID.v2Write : TapUUID.nusRX
        let required = v2 ? [TapUUID.v2Read, TapUUID.v2Write] : [TapUUID.tapData, TapUUID.nusRX]
        guard required.allSatisfy({ chars[$0] != nil }) else {
            failed(reason: "TAP characteristics missing (found \(chars.count) characteristics)")
            return
        }
        nusWriter.attach(chars[writeUUID]!)
        var pending = 0
        var problems: [String] = []
        let finish = { [weak self] in
            guard let self, gen == self.generation else { return }
            pending -= 1
            if pending == 0 { self.becomeReady(problems: problems) }
        }
        pending += 1   // released below, after everything has been started
        for (uuid, store) in [(TapUUID.hardwareRevision, \TapDeviceInfo.hardwareVersion),
                              (TapUUID.firmwareRevision, \TapDeviceInfo.firmwareVersion)] {
            guard let c = chars[uuid] else { continue }
            pending += 1
            c.readValue(on: manager.connection) { [weak self] r in
                guard let self, gen == self.generation else { return }
                switch r {
                case .success(let bytes): self.info[keyPath: store] = VersionNumber.parse(bytes: bytes)
                case .failure(let e): self.logger.info("cannot read \(uuid.prefix(8)): \(e)")
                }
                finish()
            }
        }
        if info.battery == nil, let c = chars[TapUUID.batteryLevel] {
            pending += 1
            c.readValue(on: manager.connection) { [weak self] r in
                guard let self, gen == self.generation else { return }
                if case .success(let b) = r, let first = b.first { self.info.battery = Int(first) }
                finish()
            }
        }
        if options.subscribe {
            var kinds: [(String, NotifyKind)] = v2 ? [(TapUUID.v2Read, .v2)]
                : [(TapUUID.tapData, .tap), (TapUUID.mouseData, .mouse), (TapUUID.airGestures, .air)]
            if !v2, desiredMode?.isRaw == true { kinds.append((TapUUID.nusTX, .raw)) }
            for (uuid, kind) in kinds {
                guard let c = chars[uuid] else { continue }
                pending += 1
                subscribe(c, kind: kind, gen: gen) { error in
                    if let error { problems.append("\(uuid.prefix(8)): \(error)") }
                    finish()
                }
            }
        }
        finish()
    }

    func subscribe(_ c: GattCharacteristic1, kind: NotifyKind, gen: Int, done: @escaping (DBusError?) -> Void) {
        let channel = NotifyChannel(characteristic: c, connection: manager.connection, loop: manager.loop, logger: logger) {
            [unowned self] bytes in self.received(bytes, kind: kind)
        }
        channels.append(channel)
        channel.onClosed = { [weak self, weak channel] in
            guard let self, let channel else { return }
            self.notificationSocketClosed(channel, kind: kind, gen: gen)
        }
        channel.start { [weak self] r in
            guard let self, gen == self.generation else { return }
            switch r {
            case .success(.properties): self.propertyChannels[c.path] = channel
            case .success: break
            case .failure(let e): self.logger.warning("cannot subscribe to \(c.uuid.prefix(8)): \(e)")
            }
            done(r.failureValue)
        }
    }

    /// BlueZ closed a notification socket. On a disconnect the link-down signal follows and
    /// tears everything down; if the link is still up a little later, subscribe again.
    private func notificationSocketClosed(_ channel: NotifyChannel, kind: NotifyKind, gen: Int) {
        manager.loop.schedule(afterMilliseconds: 500) { [weak self] in
            guard let self, gen == self.generation, self.device?.connected == true,
                  let i = self.channels.firstIndex(where: { $0 === channel }) else { return }
            self.logger.notice("notification socket closed while connected; subscribing again",
                               metadata: ["char": "\(channel.characteristic.uuid.prefix(8))"])
            self.channels.remove(at: i)
            self.subscribe(channel.characteristic, kind: kind, gen: gen) { _ in }
        }
    }

    private func becomeReady(problems: [String]) {
        // Tap data (v1) or the v2 stream are required when subscribing; the rest is optional.
        if options.subscribe {
            let key = info.protocolVersion == .v2 ? TapUUID.v2Read : TapUUID.tapData
            if !channels.contains(where: { $0.characteristic.uuid == key && $0.transport != .none }) {
                failed(reason: "cannot subscribe to tap data: \(problems.joined(separator: "; "))")
                return
            }
        }
        state = .ready
        info.isReady = true
        backoff = options.reconnectInitialMilliseconds
        logger.info("ready", metadata: ["hw": "\(info.hardwareVersion.map(VersionNumber.string) ?? "?")",
                                        "fw": "\(info.firmwareVersion.map(VersionNumber.string) ?? "?")",
                                        "protocol": "\(info.protocolVersion == .v2 ? "v2" : "v1")"])
        if let mode = desiredMode { apply(mode) }
        manager.emit(.connected(info))
        if options.subscribe, options.requestAirGestureStateOnConnect, info.protocolVersion == .v1 { requestAirGestureState() }
        scheduleRefresh()
    }

    // MARK: Hot path

    /// Decodes one notification and emits it. No D-Bus, no allocation for fixed-size inputs.
    private func received(_ bytes: UnsafeRawBufferPointer, kind: NotifyKind) {
        let decoded = decoder.decode(bytes, kind: kind)
        // The protocol is unverified on hardware: an undocumented value is worth one line.
        if let notice = decoder.takeNotice() { logger.notice("device sent \(notice); delivered as is") }
        switch decoded {
        case .input(let input):
            manager.emit(.input(device: id, input))
        case .nothing:
            break
        case .malformed:
            let count = decoder.malformedPackets
            if count <= 10 || count % 1000 == 0 {
                logger.warning("dropped malformed \(kind) packet (\(count) so far): \(hex(UnsafeRawBufferPointer(rebasing: bytes.prefix(24))))")
            }
        }
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let e) = self { e } else { nil } }
}

extension TapDeviceSession {
    func batteryChanged(_ percent: Int) { info.battery = percent }
}
