import ChordMap
import KeyboardLayout
import TapBLE

/// The daemon's answers to the control interface (`org.tapuinput.Daemon1`, ``ControlService``).
extension Daemon: ControlHandler {
    public func controlStatus() -> ControlStatus {
        var status = ControlStatus(version: TapUinputVersion.string)
        status.fill(from: selector)
        status.focusSources = (focusSource.map { [$0.name] } ?? []) + [pushedFocus.name]
        if case .names(let names) = driver.layout.description { status.layout = names.description }
        status.layoutGroup = driver.layout.group
        status.layoutOrigin = driver.layout.origin
        status.batteryLowPercent = options.notifications.batteryLowPercent
        status.devices = (manager?.devices ?? []).map { info in
            var device = ControlStatus.Device(info)
            device.fill(engine: driver.status(of: info.id), keymap: selector.plan.keymap(for: info.id))
            // A connected device's role is the engine's; another's, the one it would get.
            let role = info.isConnected ? driver.role(of: info.id) : driver.resolvedRole(of: info.id, name: info.name)
            device.role = role?.rawValue ?? ""
            return device
        }
        return status
    }

    public func controlReload() throws(ControlError) {
        do { try reloadKeymap() } catch { throw .invalidKeymap(error) }
    }

    public func controlSetKeymap(path: String) throws(ControlError) {
        do { try selector.setOverride(path: path) } catch { throw .invalidKeymap(error) }
    }

    public func controlSetFocus(appID: String, title: String) {
        pushedFocus.push(appID: appID, title: title)
    }

    public func controlSetLayout(origin: String, layout: LayoutNames?) {
        pushedLayout = layout.map { LayoutReport(.names($0), origin: origin) }
        layoutChanged()
    }

    public func controlVibrate(device: String, durationsMs: [Int], done: @escaping (ControlError?) -> Void) {
        guard let manager else { done(.failed("the system bus is not connected")); return }
        switch ControlDevices.resolve(device, among: manager.devices) {
        case .failure(let error): done(error)
        case .success(let id):
            manager.vibrate(durationsMs, device: id) { ok in done(ok ? nil : .failed("the haptic write failed")) }
        }
    }

    public func controlSetMode(device: String, mode: String, done: @escaping (ControlError?) -> Void) {
        guard let manager else { done(.failed("the system bus is not connected")); return }
        let target: InputMode
        switch ControlDevices.mode(mode) {
        case .failure(let error): done(error); return
        case .success(let m): target = m
        }
        switch ControlDevices.resolve(device, among: manager.devices) {
        case .failure(let error): done(error)
        case .success(let id):
            manager.setMode(target, device: id) { ok in done(ok ? nil : .failed("writing the mode failed")) }
        }
    }
}
