import ChordMap
import TapBLE

/// The device side of ``ControlHandler``'s `Vibrate`, `SetMode` and `Status`, over the
/// ``TapBLE/TapManager``'s devices: which device a request means, which mode it names, and a
/// device's status entry.
///
/// ```swift
/// func controlVibrate(device: String, durationsMs: [Int], done: @escaping (ControlError?) -> Void) {
///     guard let manager else { done(.failed("the system bus is not connected")); return }
///     switch ControlDevices.resolve(device, among: manager.devices) {
///     case .failure(let e): done(e)
///     case .success(let id):
///         manager.vibrate(durationsMs, device: id) { ok in done(ok ? nil : .failed("the haptic write failed")) }
///     }
/// }
/// ```
public enum ControlDevices {
    /// The device `device` names among the *ready* `devices`: `""` is every ready device
    /// (`.success(nil)`, what ``TapBLE/TapManager/vibrate(_:device:completion:)`` takes for
    /// "all"); otherwise an id (address, any case) or a name (exact, then any case).
    /// ``ControlError/unknownDevice(_:)`` when none is ready or none matches.
    public static func resolve(_ device: String, among devices: [TapDeviceInfo]) -> Result<DeviceID?, ControlError> {
        let ready = devices.filter(\.isReady)
        if device.isEmpty { return ready.isEmpty ? .failure(.unknownDevice("")) : .success(nil) }
        if let d = ready.first(where: { $0.id.caseInsensitiveEquals(device) }) { return .success(d.id) }
        if let d = ready.first(where: { $0.name == device }) ?? ready.first(where: { $0.name.caseInsensitiveEquals(device) }) {
            return .success(d.id)
        }
        return .failure(.unknownDevice(device))
    }

    /// The input mode `name` names (`text`, `controller`, `controller-mouse`,
    /// `controller-text`, `raw`, `raw:F,G,A`), or ``ControlError/invalidArgument(_:)``.
    public static func mode(_ name: String) -> Result<InputMode, ControlError> {
        guard let mode = InputMode(parsing: name) else {
            return .failure(.invalidArgument(
                "unknown mode \"\(name)\": use text, controller, controller-mouse, controller-text, raw or raw:F,G,A"))
        }
        return .success(mode)
    }
}

extension ControlStatus.Device {
    /// A status entry with what BLE knows of the device (id, name, readiness, battery,
    /// versions, mode); add the engine's view with ``fill(engine:keymap:)``.
    public init(_ info: TapDeviceInfo) {
        self.init(id: info.id, name: info.name, connected: info.isReady, battery: info.battery,
                  hardwareVersion: info.hardwareVersion.map(VersionNumber.string),
                  firmwareVersion: info.firmwareVersion.map(VersionNumber.string),
                  mode: info.mode?.description)
    }
}

extension String {
    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool { lowercased() == other.lowercased() }
}
