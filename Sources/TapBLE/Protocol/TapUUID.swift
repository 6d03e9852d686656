/// GATT UUIDs of the TAP firmware (tap-protocol.md §1), lower-case as BlueZ reports them.
public enum TapUUID {
    /// The TAP service; a device offering it is a Tap (§4.3).
    public static let tapService = "c3ff0001-1d8b-40fd-a56f-c7bd5d0f3370"
    public static let tapData = "c3ff0005-1d8b-40fd-a56f-c7bd5d0f3370"
    public static let mouseData = "c3ff0006-1d8b-40fd-a56f-c7bd5d0f3370"
    public static let uiCommands = "c3ff0009-1d8b-40fd-a56f-c7bd5d0f3370"
    public static let airGestures = "c3ff000a-1d8b-40fd-a56f-c7bd5d0f3370"
    /// Its presence means the device speaks the v2 framed protocol.
    public static let v2Read = "c3ff000e-1d8b-40fd-a56f-c7bd5d0f3370"
    public static let v2Write = "c3ff000f-1d8b-40fd-a56f-c7bd5d0f3370"
    public static let nusService = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    /// NUS RX: input mode and XR state commands.
    public static let nusRX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
    /// NUS TX: the raw sensor stream.
    public static let nusTX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
    public static let firmwareRevision = "00002a26-0000-1000-8000-00805f9b34fb"
    public static let hardwareRevision = "00002a27-0000-1000-8000-00805f9b34fb"
    public static let batteryLevel = "00002a19-0000-1000-8000-00805f9b34fb"
}
