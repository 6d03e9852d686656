import ChordMap
import EventLoop
import Logging
import TapBLE

/// The daemon's desktop notifications: what is news (connects, disconnects, a battery
/// crossing below the threshold, a keymap that failed to load), how often (
/// ``NotificationRateLimit``) and the texts (``NotificationText``); ``DesktopNotifier`` sends.
///
/// Battery levels are not events of the BLE side: they are read from the devices at each
/// connect and every ``Options/batteryCheckMilliseconds`` (BlueZ's `Battery1` and the GATT
/// battery level change a percent at a time, minutes apart).
///
/// Everything runs on the daemon's loop and returns at once.
public final class DaemonNotifications {
    public struct Options: Sendable {
        /// `--no-notifications` sets this false: then nothing is created at all.
        public var enabled = true
        /// `--battery-low PERCENT`: below this a device's battery is low.
        public var batteryLowPercent = BatteryThreshold.defaultLowPercent
        /// One notification per kind and device at most this often (later ones are coalesced:
        /// the newest is shown when the interval is over).
        public var perKeyMilliseconds: Int64 = 30_000
        /// At most this many notifications in any `globalWindowMilliseconds`; the rest are dropped.
        public var globalCap = 6
        public var globalWindowMilliseconds: Int64 = 60_000
        public var batteryCheckMilliseconds = 60_000
        public init() {}
    }

    let notifier: DesktopNotifier
    private let loop: EventLoop
    private let devices: () -> [TapDeviceInfo]
    private let options: Options
    private var limit: NotificationRateLimit
    private var battery: BatteryThreshold
    /// The newest notification of each key waiting for its interval, and its timer.
    private var pending: [String: DesktopNotification] = [:]
    private var timers: [String: EventLoop.Timer] = [:]
    private var names: [String: String] = [:]
    private var batteryTimer: EventLoop.Timer?

    /// - Parameter devices: the BLE side's devices now (for names and battery levels).
    public init(notifier: DesktopNotifier, options: Options, loop: EventLoop, devices: @escaping () -> [TapDeviceInfo]) {
        self.notifier = notifier
        self.options = options
        self.loop = loop
        self.devices = devices
        limit = NotificationRateLimit(perKeyMilliseconds: options.perKeyMilliseconds, globalCap: options.globalCap,
                                      globalWindowMilliseconds: options.globalWindowMilliseconds)
        battery = BatteryThreshold(lowPercent: options.batteryLowPercent)
        scheduleBatteryCheck()
    }

    deinit {
        for timer in timers.values { loop.cancel(timer) }
        if let batteryTimer { loop.cancel(batteryTimer) }
    }

    public func deviceConnected(_ info: TapDeviceInfo) {
        names[info.id] = info.name
        post(NotificationText.connected(id: info.id, name: info.name))
        if let percent = info.battery { batteryReading(percent, id: info.id, name: info.name) }
    }

    public func deviceDisconnected(id: String, reason: String) {
        post(NotificationText.disconnected(id: id, name: names[id] ?? "", reason: reason))
    }

    public func keymapError(_ error: KeymapError) {
        post(NotificationText.keymapError(error))
    }

    /// Reads every connected device's battery now (also run by the timer).
    public func checkBattery() {
        for info in devices() where info.isReady {
            if let percent = info.battery { batteryReading(percent, id: info.id, name: info.name) }
        }
    }

    private func batteryReading(_ percent: Int, id: String, name: String) {
        if battery.reading(percent, device: id) {
            post(NotificationText.batteryLow(id: id, name: name, percent: percent))
        }
    }

    private func scheduleBatteryCheck() {
        batteryTimer = loop.schedule(afterMilliseconds: options.batteryCheckMilliseconds) { [weak self] in
            self?.checkBattery()
            self?.scheduleBatteryCheck()
        }
    }

    private func post(_ n: DesktopNotification) {
        let key = n.replaceKey
        if timers[key] != nil { pending[key] = n; return }   // coalesced into the waiting one
        switch limit.admit(key, now: Self.nowMilliseconds()) {
        case .now: notifier.show(n)
        case .drop: break
        case .later(let at):
            pending[key] = n
            let delay = Int(max(0, at - Self.nowMilliseconds()))
            timers[key] = loop.schedule(afterMilliseconds: delay) { [weak self] in
                guard let self else { return }
                self.timers[key] = nil
                if let waiting = self.pending.removeValue(forKey: key) { self.post(waiting) }
            }
        }
    }

    private static func nowMilliseconds() -> Int64 { Int64(MonotonicInstant.now().nanoseconds / 1_000_000) }
}
