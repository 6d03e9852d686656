import ChordMap
import TapBLE
/// Placeholder until the uinput layer lands.
public enum TapUinputModule {}
