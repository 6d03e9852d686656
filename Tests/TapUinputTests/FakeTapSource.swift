import ChordMap
@testable import TapBLE

/// An in-process BLE side for the daemon's tests (the seam ``TapEventSource``): the test plays
/// the devices (connect, tap, disconnect) and reads back what the daemon asked of them.
final class FakeTapSource: TapEventSource {
    var onEvent: ((TapEvent) -> Void)?
    var devices: [TapDeviceInfo] = []
    var isBlueZAvailable = true
    private(set) var started = false
    /// What the daemon asked, in order: `mode controller AA:01`, `vibrate [100, 50] *`, `stop text`.
    private(set) var commands: [String] = []

    func start() { started = true }

    func stop(restoreTextMode: Bool, completion: (() -> Void)?) {
        commands.append(restoreTextMode ? "stop text" : "stop")
        completion?()
    }

    func setMode(_ mode: InputMode, device: DeviceID?, completion: ((Bool) -> Void)?) {
        commands.append("mode \(mode) \(device ?? "*")")
        completion?(true)
    }

    func setXRState(_ state: XRState?, device: DeviceID?) {
        commands.append("xr \(state.map { "\($0)" } ?? "auto") \(device ?? "*")")
    }

    func vibrate(_ durations: [Int], device: DeviceID?, completion: ((Bool) -> Void)?) {
        commands.append("vibrate \(durations) \(device ?? "*")")
        completion?(true)
    }

    // MARK: Playing the devices

    /// A device is subscribed and in controller mode, as ``TapManager`` reports it.
    func connect(_ id: DeviceID, name: String) {
        let info = TapDeviceInfo(id: id, name: name, path: "/org/bluez/hci0/dev_\(id.replacingOccurrences(of: ":", with: "_"))",
                                 isPaired: true, isConnected: true, isReady: true, mode: .controller)
        devices.removeAll { $0.id == id }
        devices.append(info)
        onEvent?(.connected(info))
    }

    /// A new battery reading, as BlueZ's `Battery1` or the GATT level would update it.
    func setBattery(_ id: DeviceID, _ percent: Int) {
        if let i = devices.firstIndex(where: { $0.id == id }) { devices[i].battery = percent }
    }

    func disconnect(_ id: DeviceID, reason: String = "link lost") {
        if let i = devices.firstIndex(where: { $0.id == id }) {
            devices[i].isConnected = false
            devices[i].isReady = false
        }
        onEvent?(.disconnected(id: id, reason: reason))
    }

    /// A tap of `chord` (`"x...."` thumb first).
    func tap(_ id: DeviceID, _ chord: String) {
        onEvent?(.input(device: id, .tap(TapPacket(fingers: Chord(spelling: chord)!.rawValue))))
    }

    func adapterPowered(_ on: Bool) { onEvent?(.adapterPowered(on)) }
}
