/// The daemon's seam to its devices: what it needs of the BLE side, and nothing more.
///
/// ``TapManager`` is the BlueZ implementation; the daemon's tests use an in-process one that
/// delivers scripted events and records the commands (in the spirit of NIO's `EmbeddedChannel`).
/// Everything happens on the daemon's loop.
public protocol TapEventSource: AnyObject {
    /// Receives every event, on the loop.
    var onEvent: ((TapEvent) -> Void)? { get set }
    /// The devices known (paired TAPs), connected or not, sorted by id.
    var devices: [TapDeviceInfo] { get }
    /// Whether bluetoothd is on the bus (for the first-run hint).
    var isBlueZAvailable: Bool { get }
    /// Starts delivering events.
    func start()
    /// Stops; with `restoreTextMode` the devices are put back in Text mode first.
    /// `completion` runs on the loop when done.
    func stop(restoreTextMode: Bool, completion: (() -> Void)?)
    /// Writes an input mode to `device` (nil: every connected device); `completion(ok)` once written.
    func setMode(_ mode: InputMode, device: DeviceID?, completion: ((Bool) -> Void)?)
    /// Writes a TapXR state (nil: automatic) to `device` (nil: every connected device).
    func setXRState(_ state: XRState?, device: DeviceID?)
    /// Plays a haptic pattern (on/off durations in ms) on `device` (nil: every connected device).
    func vibrate(_ durations: [Int], device: DeviceID?, completion: ((Bool) -> Void)?)
}

extension TapManager: TapEventSource {}
