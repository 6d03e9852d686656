import DBus
import EventLoop
import Glibc
import Logging
import TapBLE

/// Reads ``DoctorFacts`` from the running system: `/dev/uinput`, BlueZ on the system bus, the
/// systemd user manager and the daemon on the session bus, the keymap files, the environment.
/// For the command line only: it waits on D-Bus replies (each bounded by a timeout).
public enum DoctorProbe {
    public static func gather(environment: [String: String] = ConfigPaths.processEnvironment(),
                              uinputPath: String = "/dev/uinput",
                              systemBus: DBusConnection.Bus = .system, sessionBus: DBusConnection.Bus = .session) -> DoctorFacts {
        var f = DoctorFacts()
        f.uinputExists = access(uinputPath, F_OK) == 0
        f.uinputWritable = access(uinputPath, W_OK) == 0
        f.seat = environment["XDG_SEAT"].flatMap { $0.isEmpty ? nil : $0 }
        readBlueZ(into: &f, bus: systemBus)
        readSession(into: &f, bus: sessionBus)
        let selector = KeymapSelector(catalog: .load(paths: ConfigPaths(environment: environment)))
        f.keymapName = selector.active.keymap.name
        f.keymapErrors = selector.errorTexts
        f.focusSources = FocusDetection.availableSources(environment: environment, fileExists: { access($0, F_OK) == 0 }).map(\.name)
        f.pushOnlyDesktop = FocusDetection.pushOnlyDesktop(environment: environment)
        return f
    }

    /// Adapters and TAPs, from one `GetManagedObjects` through the object model TapBLE uses.
    static func readBlueZ(into f: inout DoctorFacts, bus: DBusConnection.Bus) {
        guard let loop = try? EventLoop(), let connection = try? DBusConnection(bus: bus, loop: loop) else {
            f.systemBus = false
            return
        }
        guard (try? connection.callBlocking(.nameHasOwner(BlueZ.service), timeoutMilliseconds: 2000))?.first?.bool == true else {
            f.bluez = false
            return
        }
        let model = BlueZObjectModel(connection: connection, logger: Logger(label: "doctor"))
        model.start()
        defer { model.stop() }
        f.bluez = loop.run(until: { model.isAvailable }, timeoutMilliseconds: 3000)
        guard f.bluez else { return }
        f.adapters = model.adapters.map { .init(address: $0.address ?? $0.path, powered: $0.powered) }
        f.taps = model.devices.filter(\.isTap).map { d in
            var tap = DoctorFacts.Tap(address: d.address ?? d.path, name: d.alias ?? d.name ?? "")
            tap.paired = d.paired
            tap.bonded = d.bonded
            tap.trusted = d.trusted
            tap.connected = d.connected
            tap.servicesResolved = d.servicesResolved
            return tap
        }
    }

    /// The user unit's state and the running daemon's status.
    static func readSession(into f: inout DoctorFacts, bus: DBusConnection.Bus) {
        if let client = try? ControlClient(bus: bus), client.isDaemonRunning() {
            f.daemon = try? client.status()
        }
        guard let loop = try? EventLoop(), let connection = try? DBusConnection(bus: bus, loop: loop) else { return }
        let systemd = (destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1")
        func call(_ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue]) -> [DBusValue]? {
            try? connection.callBlocking(.methodCall(destination: systemd.destination, path: path, interface: interface,
                                                     method: method, arguments: arguments), timeoutMilliseconds: 2000)
        }
        let unitName = "tap-uinput.service"
        // No unit file: GetUnitFileState fails but LoadUnit still answers (a not-found unit).
        let fileState = call(systemd.path, "org.freedesktop.systemd1.Manager", "GetUnitFileState", [.string(unitName)])?
            .first?.string ?? ""
        guard let loaded = call(systemd.path, "org.freedesktop.systemd1.Manager", "LoadUnit", [.string(unitName)]),
              case .objectPath(let unitPath)? = loaded.first else { return }
        let active = call(unitPath, "org.freedesktop.DBus.Properties", "Get",
                          [.string("org.freedesktop.systemd1.Unit"), .string("ActiveState")])?.first?.unwrapped.string
        f.unit = DoctorFacts.Unit(fileState: fileState, activeState: active ?? "unknown")
    }
}
