import CEvdev
import Glibc

/// One virtual input device created through `/dev/uinput` with libevdev.
///
/// The device exists from `init` until `deinit` (the kernel removes it, and with it any
/// held key, when the fd closes). Not thread-safe: owned by the daemon's loop.
public final class UinputDevice {
    public let profile: DeviceProfile
    private let evdev: OpaquePointer      // struct libevdev *
    private let uinput: OpaquePointer     // struct libevdev_uinput *

    /// Creates the device described by `profile`.
    ///
    /// - Throws: ``UinputError`` with a hint naming what to do when `/dev/uinput` is missing
    ///   or not writable.
    public init(profile: DeviceProfile, uinputPath: String = "/dev/uinput") throws(UinputError) {
        try UinputError.checkAccess(uinputPath)
        guard let dev = libevdev_new() else { throw UinputError(operation: "libevdev_new", errno: ENOMEM, path: uinputPath) }
        libevdev_set_name(dev, profile.name)
        libevdev_set_id_bustype(dev, Int32(profile.bus))
        libevdev_set_id_vendor(dev, Int32(profile.vendor))
        libevdev_set_id_product(dev, Int32(profile.product))
        libevdev_set_id_version(dev, 1)
        libevdev_enable_event_type(dev, UInt32(EV_SYN))
        libevdev_enable_event_type(dev, UInt32(EV_KEY))
        for code in profile.keys { libevdev_enable_event_code(dev, UInt32(EV_KEY), UInt32(code), nil) }
        if !profile.relativeAxes.isEmpty {
            libevdev_enable_event_type(dev, UInt32(EV_REL))
            for axis in profile.relativeAxes { libevdev_enable_event_code(dev, UInt32(EV_REL), UInt32(axis), nil) }
        }
        if profile.autorepeat {
            // Kernel software autorepeat with the kernel's own defaults (250 ms, 33 ms); desktops
            // apply their own repeat settings on top.
            libevdev_enable_event_type(dev, UInt32(EV_REP))
            var delay: Int32 = 250, period: Int32 = 33
            libevdev_enable_event_code(dev, UInt32(EV_REP), UInt32(REP_DELAY), &delay)
            libevdev_enable_event_code(dev, UInt32(EV_REP), UInt32(REP_PERIOD), &period)
        }
        let fd = open(uinputPath, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            libevdev_free(dev)
            throw UinputError(operation: "open", errno: e, path: uinputPath)
        }
        var ui: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, fd, &ui)
        guard rc == 0, let ui else {
            close(fd); libevdev_free(dev)
            throw UinputError(operation: "create \(profile.name)", errno: -rc, path: uinputPath)
        }
        self.profile = profile
        self.evdev = dev
        self.uinput = ui
    }

    deinit {
        let fd = libevdev_uinput_get_fd(uinput)
        libevdev_uinput_destroy(uinput)
        close(fd)
        libevdev_free(evdev)
    }

    /// Writes `events` in order, in one `write(2)`: the kernel takes any number of events per
    /// write, so a frame (its keys and its `SYN_REPORT`) costs one system call. Timestamps stay
    /// zero, as libevdev leaves them: the kernel stamps each event.
    public func write(_ events: [RawInputEvent]) throws(UinputError) {
        let fd = libevdev_uinput_get_fd(uinput)
        let size = MemoryLayout<input_event>.stride * events.count
        let err = withUnsafeTemporaryAllocation(of: input_event.self, capacity: events.count) { buffer -> Int32 in
            for (i, e) in events.enumerated() {
                var raw = input_event()
                raw.type = e.type; raw.code = e.code; raw.value = e.value
                buffer.initializeElement(at: i, to: raw)
            }
            while true {
                let n = Glibc.write(fd, buffer.baseAddress, size)
                if n == size { return 0 }
                if n < 0 && errno == EINTR { continue }
                return n < 0 ? errno : EIO      // a short write: the device went away mid-frame
            }
        }
        if err != 0 { throw UinputError(operation: "write \(profile.name)", errno: err, path: nil) }
    }
}

/// The keyboard and pointer pair behind an ``EventSink``.
public final class UinputSink: EventSink {
    public let keyboard: UinputDevice
    public let pointer: UinputDevice

    public init(uinputPath: String = "/dev/uinput") throws(UinputError) {
        keyboard = try UinputDevice(profile: .keyboard, uinputPath: uinputPath)
        pointer = try UinputDevice(profile: .pointer, uinputPath: uinputPath)
    }

    public func write(_ events: [RawInputEvent], to role: DeviceProfile.Role) throws {
        try (role == .keyboard ? keyboard : pointer).write(events)
    }
}
