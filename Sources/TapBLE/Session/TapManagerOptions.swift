extension TapManager {
    /// How a ``TapManager`` drives its devices. Defaults follow the vendor SDKs.
    public struct Options: Sendable {
        /// Written on connect and refreshed; nil leaves the device's mode alone (one-shot tools).
        public var defaultMode: InputMode? = .controller
        /// Per-device modes that override ``defaultMode``.
        public var deviceModes: [DeviceID: InputMode] = [:]
        /// TapXR input type, written after the mode on TapXR devices (HW ≥ 4.0.0) and
        /// refreshed with it, as the Python SDK does (iOS/Android send it once). Nil: never.
        public var xrState: XRState? = .userControl
        /// Per-device XR states that override ``xrState``.
        public var deviceXRStates: [DeviceID: XRState] = [:]
        /// Mode refresh period (v2: keepalive period). The SDKs use 10 s; Windows 5 s.
        public var modeRefreshMilliseconds = 10_000
        /// Minimum gap after one NUS write completes before the next starts (Python SDK
        /// `MODE_COMMAND_SETTLE_SECONDS`; the firmware has one shared command slot).
        public var writeSpacingMilliseconds = 200
        /// Connect to paired Taps that are not connected, and reconnect lost ones.
        public var autoConnect = true
        /// Subscribe to inputs (tap, mouse, air gestures; raw data in raw mode).
        public var subscribe = true
        /// Only manage these devices; nil: every paired Tap.
        public var devices: Set<DeviceID>?
        /// Reconnect backoff: first delay, doubling up to the maximum.
        public var reconnectInitialMilliseconds = 1_000
        public var reconnectMaximumMilliseconds = 30_000
        public var connectTimeoutMilliseconds = 30_000
        /// Ask for the air-gesture state after subscribing (Android, iOS, Windows do).
        public var requestAirGestureStateOnConnect = true
        /// In air-mouse state, report taps 2 and 4 as air gestures 12/14 (Python/web SDK;
        /// iOS/Android/Windows divert every tap). Other taps are still reported as taps.
        public var divertTapsInAirMouseState = true

        public init() {}
    }
}
