/// Decides when "battery low" is news: once when a device's level crosses below the
/// threshold, not at every reading below it.
///
/// A device is *armed* until a reading below ``lowPercent`` fires it; it re-arms only when a
/// reading reaches ``lowPercent`` + ``rearmMargin`` (charging), so a level that wobbles
/// between 14 and 15 % does not notify at each wobble. The first reading of a device counts:
/// a TAP that connects at 9 % fires at once. Pure; one flag per device.
public struct BatteryThreshold: Sendable {
    /// The default of `run --battery-low`.
    public static let defaultLowPercent = 15
    /// Below this percentage the battery is low.
    public var lowPercent: Int
    public var rearmMargin: Int
    private var fired: Set<String> = []

    public init(lowPercent: Int = defaultLowPercent, rearmMargin: Int = 5) {
        self.lowPercent = lowPercent
        self.rearmMargin = rearmMargin
    }

    /// Feeds one reading; true when it is a crossing the user should hear about.
    public mutating func reading(_ percent: Int, device: String) -> Bool {
        if percent < lowPercent {
            return fired.insert(device).inserted
        }
        if percent >= lowPercent + rearmMargin { fired.remove(device) }
        return false
    }
}
