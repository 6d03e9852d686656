/// `[feedback]`: the haptic pulses the engine sends by itself. All on by default; `haptics =
/// false` turns every one off. A layer's own `on-enter` / `on-leave` replaces the layer pulse
/// for that layer.
public struct FeedbackSettings: Sendable, Equatable {
    public var haptics = true
    /// A pulse when a layer is toggled on (``FeedbackPatterns/engaged``) and when the device
    /// returns to base (``FeedbackPatterns/released``); one-shot layers do not pulse.
    public var layer = true
    /// The same pulses when modifiers are locked (`lock(...)`, the double-tapped Shift) and unlocked.
    public var lock = true
    /// A pulse when the device connects (``FeedbackPatterns/connected``).
    public var connect = true
    public init() {}

    var layerPulses: Bool { haptics && layer }
    var lockPulses: Bool { haptics && lock }
    var connectPulse: Bool { haptics && connect }
}

/// The default pulses, on/off times in ms. Engaging is one short buzz, releasing two shorter
/// ones, so the two can be told apart without looking; connecting is a longer single buzz.
public enum FeedbackPatterns {
    public static let engaged = [60]
    public static let released = [30, 60, 30]
    public static let connected = [150]
}
