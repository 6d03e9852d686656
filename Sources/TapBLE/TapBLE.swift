import EventLoop
/// Placeholder until the BLE layer lands.
public enum TapBLEModule {}
