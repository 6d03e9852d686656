import KeyboardLayout

/// What the control interface needs from the daemon. The daemon implements it;
/// ``ControlService`` calls it on the loop's thread, one request at a time, after checking
/// argument types and value ranges.
///
/// Synchronous requirements must answer at once (they read cached state, nothing blocks).
/// ``controlVibrate(device:durationsMs:done:)`` and ``controlSetMode(device:mode:done:)``
/// talk to the device, so they answer later through `done`, exactly once (nil: success).
/// A request that never calls `done` leaves the caller waiting until its D-Bus timeout.
public protocol ControlHandler: AnyObject {
    /// A snapshot for `Status()`.
    func controlStatus() -> ControlStatus

    /// `Reload()`: re-read every keymap file now. Throw ``ControlError/invalidKeymap(_:)``
    /// with the diagnostics when a file is broken (the running keymap stays).
    /// With ``KeymapSelector``: `do { try selector.reload() } catch { throw .invalidKeymap(error) }`.
    func controlReload() throws(ControlError)

    /// `SetKeymap(path)`: run this keymap file whatever has the focus; `""` returns to
    /// automatic selection. With ``KeymapSelector``: ``KeymapSelector/setOverride(path:)``.
    func controlSetKeymap(path: String) throws(ControlError)

    /// `SetFocus(app_id, title)` from the GNOME Shell extension or the KWin script:
    /// feed ``PushedFocusSource/push(appID:title:)``.
    func controlSetFocus(appID: String, title: String)

    /// `SetLayout(origin, layout)` from the GNOME Shell extension (or any desktop helper): the
    /// keyboard layout the desktop has active, already parsed; nil (`""`) withdraws it.
    /// `origin` (`gnome`, `kde`, ...) is checked to be a short word.
    func controlSetLayout(origin: String, layout: LayoutNames?)

    /// `Vibrate(device, durations)`: play a haptic pattern. `device` is an id (address) or a
    /// name; `""` means every connected device. `durationsMs` is already checked: 1 to 18
    /// values, each 10...2550. Call `done(.unknownDevice(device))` when there is no such device.
    func controlVibrate(device: String, durationsMs: [Int], done: @escaping (ControlError?) -> Void)

    /// `SetMode(device, mode)`: write an input mode (`text`, `controller`, ...). `device` as
    /// for vibrate. Call `done(.invalidArgument(...))` for a mode the device layer cannot parse.
    func controlSetMode(device: String, mode: String, done: @escaping (ControlError?) -> Void)
}
