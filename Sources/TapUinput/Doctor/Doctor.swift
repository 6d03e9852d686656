/// `tap-uinput doctor`: every link between a TAP and typed text, checked in order, each failure
/// with what is wrong and the exact fix.
///
/// Split in two so the diagnosis is testable without breaking a machine: ``DoctorFacts`` is what
/// the system looks like (``DoctorProbe`` reads it), ``diagnose(_:)`` turns facts into findings.
public enum Doctor {
    /// One checked link.
    public struct Finding: Equatable, Sendable, Codable {
        public enum Status: String, Sendable, Codable { case ok, warning, problem }
        public var status: Status
        /// Which link: `uinput`, `bluetoothd`, `adapter`, `device AA:BB:…`, `service`, `keymap`, `desktop`.
        public var check: String
        /// What was found.
        public var detail: String
        /// The exact command or step that fixes it (problems and warnings only).
        public var fix: String?

        public init(_ status: Status, _ check: String, _ detail: String, fix: String? = nil) {
            self.status = status; self.check = check; self.detail = detail; self.fix = fix
        }
    }

    /// The findings for `facts`, in the order the links are used.
    public static func diagnose(_ facts: DoctorFacts) -> [Finding] {
        uinput(facts) + bluetooth(facts) + service(facts) + keymaps(facts) + desktop(facts)
    }

    /// True when nothing is a problem (warnings allowed): the exit status.
    public static func healthy(_ findings: [Finding]) -> Bool { !findings.contains { $0.status == .problem } }

    // MARK: Links

    static func uinput(_ f: DoctorFacts) -> [Finding] {
        guard f.uinputExists else {
            return [Finding(.problem, "uinput", "/dev/uinput does not exist: the uinput kernel module is not loaded",
                            fix: "sudo modprobe uinput  (the package loads it at boot through /usr/lib/modules-load.d/tap-uinput.conf)")]
        }
        guard f.uinputWritable else {
            let seat = f.seat.map { "you are on seat \($0)" } ?? "no seat is known for this session (XDG_SEAT unset: not a local login?)"
            return [Finding(.problem, "uinput", "no write access to /dev/uinput; \(seat)",
                            fix: "install the udev rule (the package does), then: sudo udevadm control --reload && "
                                + "sudo udevadm trigger --sysname-match=uinput; log in on the machine itself (the "
                                + "uaccess ACL goes to the user at the active local seat); check with getfacl /dev/uinput")]
        }
        return [Finding(.ok, "uinput", "/dev/uinput is writable")]
    }

    static func bluetooth(_ f: DoctorFacts) -> [Finding] {
        guard f.systemBus else {
            return [Finding(.problem, "bluetoothd", "the D-Bus system bus cannot be reached", fix: "sudo systemctl start dbus")]
        }
        guard f.bluez else {
            return [Finding(.problem, "bluetoothd", "bluetoothd (org.bluez) is not on the system bus",
                            fix: "sudo systemctl enable --now bluetooth")]
        }
        var out = [Finding(.ok, "bluetoothd", "bluetoothd is running")]
        if f.adapters.isEmpty {
            return out + [Finding(.problem, "adapter", "no Bluetooth adapter", fix: "plug in or enable a Bluetooth adapter; rfkill list shows blocked ones (sudo rfkill unblock bluetooth)")]
        }
        if !f.adapters.contains(where: \.powered) {
            return out + [Finding(.problem, "adapter", "the adapter \(f.adapters[0].address) is powered off",
                                  fix: "bluetoothctl power on  (or your desktop's Bluetooth switch)")]
        }
        out.append(Finding(.ok, "adapter", "adapter \(f.adapters.first(where: \.powered)!.address) is powered"))
        if f.taps.isEmpty {
            return out + [Finding(.problem, "device", "no TAP is known to BlueZ",
                                  fix: "switch the TAP on nearby and run: tap-uinput pair")]
        }
        for tap in f.taps { out += device(tap, daemon: f.daemon) }
        return out
    }

    static func device(_ tap: DoctorFacts.Tap, daemon: ControlStatus?) -> [Finding] {
        let check = "device \(tap.address) (\(tap.name))"
        if !tap.paired || !tap.bonded {
            return [Finding(.problem, check, tap.paired ? "paired but not bonded: its characteristics stay encrypted" : "seen but not paired",
                            fix: "bluetoothctl remove \(tap.address); then: tap-uinput pair")]
        }
        var out: [Finding] = []
        if !tap.trusted {
            out.append(Finding(.warning, check, "not trusted: it may not reconnect by itself", fix: "bluetoothctl trust \(tap.address)"))
        }
        guard tap.connected else {
            return out + [Finding(.problem, check, "paired but not connected", fix: "switch the TAP on (tap it), or: bluetoothctl connect \(tap.address)")]
        }
        guard tap.servicesResolved else {
            return out + [Finding(.problem, check, "connected but its services are not resolved yet",
                                  fix: "wait a few seconds; if it stays so: bluetoothctl disconnect \(tap.address) && bluetoothctl connect \(tap.address)")]
        }
        guard let daemon else { return out + [Finding(.ok, check, "connected, services resolved")] }
        guard let mine = daemon.devices.first(where: { $0.id.lowercased() == tap.address.lowercased() }), mine.connected else {
            return out + [Finding(.problem, check, "connected in BlueZ, but the daemon could not subscribe: another program "
                                  + "(MapXr, the TAP app, a second tap-uinput) may hold it",
                                  fix: "close the other program, then: systemctl --user restart tap-uinput")]
        }
        guard let mode = mine.mode, mode.hasPrefix("controller") else {
            return out + [Finding(.problem, check, "ready, but in \(mine.mode ?? "an unknown") mode, not controller: taps type the TAP's own layout",
                                  fix: "tap-uinput mode --device \(tap.address) controller")]
        }
        return out + [Finding(.ok, check, "ready in \(mode) mode" + (mine.battery.map { ", battery \($0)%" } ?? ""))]
    }

    static func service(_ f: DoctorFacts) -> [Finding] {
        var out: [Finding] = []
        switch f.unit {
        case nil:
            out.append(Finding(.warning, "service", "cannot ask the systemd user manager (no session bus, or not under systemd)",
                               fix: "run the daemon yourself: tap-uinput run"))
        case let unit?:
            if unit.fileState != "enabled" && unit.fileState != "static" {
                out.append(Finding(.problem, "service", "tap-uinput.service is \(unit.fileState.isEmpty ? "not installed" : unit.fileState)",
                                   fix: unit.fileState.isEmpty ? "install the package (or make install)" : "systemctl --user enable tap-uinput"))
            }
            if unit.activeState != "active" && f.daemon == nil {
                out.append(Finding(.problem, "service", "tap-uinput.service is \(unit.activeState)",
                                   fix: "systemctl --user start tap-uinput; journalctl --user -u tap-uinput says why it stopped"))
            }
        }
        if f.daemon == nil && !out.contains(where: { $0.status == .problem }) {
            out.append(Finding(.problem, "service", "no tap-uinput daemon on the session bus", fix: "systemctl --user start tap-uinput"))
        } else if let daemon = f.daemon {
            out.append(Finding(.ok, "service", "the daemon \(daemon.version) is running"))
        }
        return out
    }

    static func keymaps(_ f: DoctorFacts) -> [Finding] {
        guard f.keymapErrors.isEmpty else {
            return f.keymapErrors.map { Finding(.problem, "keymap", $0, fix: "fix the file at the position shown (tap-uinput check FILE)") }
        }
        return [Finding(.ok, "keymap", "keymaps load: \(f.keymapName)")]
    }

    static func desktop(_ f: DoctorFacts) -> [Finding] {
        var out: [Finding] = []
        if let running = f.daemon?.focusSources.first(where: { $0 != "dbus" }) {
            out.append(Finding(.ok, "desktop", "focus from \(running)"))
        } else if let push = f.pushOnlyDesktop {
            out.append(Finding(.warning, "desktop", "\(push) only reports focus and layout through its extension/script",
                               fix: "install it: docs/focus.md (\(push == "gnome" ? "GNOME Shell extension" : "KWin script"))"))
        } else if f.focusSources.isEmpty {
            out.append(Finding(.warning, "desktop", "no desktop found to follow (per-application keymaps and the layout need one)",
                               fix: "run the daemon inside your desktop session (the user service imports its environment)"))
        } else {
            out.append(Finding(.ok, "desktop", "focus can come from \(f.focusSources.joined(separator: ", "))"))
        }
        if let daemon = f.daemon, !daemon.layout.isEmpty {
            out.append(Finding(.ok, "layout", "typing for \(daemon.layout) (from \(daemon.layoutOrigin))"))
        }
        return out
    }
}
