/// TapUinput's version: the one place it is written. `tap-uinput --version`, the daemon's
/// `Status`, the man page (generated from the command line) and `make deb` (which reads this
/// line) all take it from here.
public enum TapUinputVersion {
    public static let string = "0.4.0"
}
