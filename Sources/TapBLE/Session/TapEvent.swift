/// A device's id: its BlueZ address, `"AA:BB:CC:DD:EE:FF"`.
public typealias DeviceID = String

/// The wire protocol a device speaks (v2 if it has the `c3ff000e` characteristic).
public enum ProtocolVersion: Sendable, Hashable { case v1, v2 }

/// What the manager knows about one paired Tap.
public struct TapDeviceInfo: Sendable, Hashable {
    public var id: DeviceID
    /// BlueZ `Alias` (user-visible) or `Name`.
    public var name: String
    /// The BlueZ object path.
    public var path: String
    public var isPaired: Bool
    /// BlueZ reports the link up.
    public var isConnected: Bool
    /// Subscribed and the mode written: inputs flow.
    public var isReady: Bool
    /// DIS revisions as `MMmmbb` integers (see ``VersionNumber``), nil until read or if unreadable.
    public var hardwareVersion: Int?
    public var firmwareVersion: Int?
    /// Percent, from `Battery1` or the Battery Level characteristic.
    public var battery: Int?
    public var protocolVersion: ProtocolVersion?
    /// The mode last written to the device.
    public var mode: InputMode?

    /// Hardware revision 4.0.0 or later.
    public var isTapXR: Bool { (hardwareVersion ?? 0) >= VersionNumber.firstTapXRHardware }
}

/// Lifecycle and input events from a ``TapManager``, delivered on the loop.
public enum TapEvent: Sendable, Hashable {
    /// The device is subscribed and its mode written; versions and battery as read.
    case connected(TapDeviceInfo)
    /// A ready device went away (link lost, bluetoothd gone, adapter off, unpaired, stop).
    case disconnected(id: DeviceID, reason: String)
    /// An attempt to connect or set up failed; another follows after a backoff.
    case connectFailed(id: DeviceID, reason: String)
    /// An adapter's `Powered` (reported when first seen and on every change).
    case adapterPowered(Bool)
    case input(device: DeviceID, TapInput)
}
