import Glibc

/// A uinput operation failed. ``description`` says what happened and what to do about it.
public struct UinputError: Error, CustomStringConvertible {
    public let operation: String
    public let errno: Int32
    public let path: String?

    public var description: String {
        var text = "uinput: \(operation) failed: \(String(cString: strerror(errno)))"
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }

    /// What the user can do, for the errors that have a known fix.
    public var hint: String? {
        let path = path ?? "/dev/uinput"
        switch errno {
        case ENOENT, ENODEV:
            return "\(path) does not exist: load the module with `sudo modprobe uinput` "
                + "(and add `uinput` to /etc/modules-load.d/ to keep it)."
        case EACCES, EPERM:
            return "\(path) is not writable by this user: install the udev rule with "
                + "`sudo make install-udev` (it grants the logged-in seat user access through "
                + "TAG+=\"uaccess\"), then run `sudo udevadm trigger --sysname-match=uinput` or log in again."
        default:
            return nil
        }
    }

    /// Fails early with a clear message instead of libevdev's bare errno.
    static func checkAccess(_ path: String) throws(UinputError) {
        if access(path, F_OK) != 0 { throw UinputError(operation: "open \(path)", errno: ENOENT, path: path) }
        if access(path, W_OK) != 0 { throw UinputError(operation: "open \(path)", errno: EACCES, path: path) }
    }
}
