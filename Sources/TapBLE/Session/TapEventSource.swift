/// The daemon's seam to its input: something that delivers ``TapEvent``s on the loop.
///
/// ``TapManager`` is the BlueZ implementation; the daemon's tests and the simulator can
/// provide their own.
public protocol TapEventSource: AnyObject {
    /// Receives every event, on the loop.
    var onEvent: ((TapEvent) -> Void)? { get set }
    /// Starts delivering events.
    func start()
    /// Stops; with `restoreTextMode` the devices are put back in Text mode first.
    /// `completion` runs on the loop when done.
    func stop(restoreTextMode: Bool, completion: (() -> Void)?)
}

extension TapManager: TapEventSource {}
