import DBus
import Logging

/// A live copy of BlueZ's object tree: `GetManagedObjects` once BlueZ is on the bus, then
/// kept current from `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`.
///
/// Follows `org.bluez`'s owner: when bluetoothd vanishes the tree empties and
/// ``onAvailabilityChanged`` reports false; when it reappears the tree is reloaded and
/// reports true. Change callbacks fire only while available.
public final class BlueZObjectModel {
    public private(set) var objects: [String: InterfaceProperties] = [:]
    public private(set) var isAvailable = false

    public var onAvailabilityChanged: ((Bool) -> Void)?
    public var onInterfacesAdded: ((_ path: String, _ interfaces: [String]) -> Void)?
    public var onInterfacesRemoved: ((_ path: String, _ interfaces: [String]) -> Void)?
    public var onPropertiesChanged: ((_ path: String, _ interface: String, _ changed: [String: DBusValue]) -> Void)?
    /// A characteristic's `Value` changed: a notification on the StartNotify path. The bytes
    /// are valid only during the call. Values are a stream, not state: they are not kept in
    /// ``objects`` and never reach ``onPropertiesChanged``.
    public var onCharacteristicValue: ((_ path: String, _ value: UnsafeRawBufferPointer) -> Void)?

    private let connection: DBusConnection
    private let logger: Logger
    private var subscriptions: [DBusConnection.Subscription] = []
    private var owner: String?
    private var loadGeneration = 0

    public init(connection: DBusConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Subscribes to BlueZ's signals and starts following its name owner.
    public func start() {
        guard subscriptions.isEmpty else { return }
        subscriptions.append(connection.subscribe(DBusMatchRule(sender: BlueZ.service, interface: BlueZ.objectManager,
                                                                member: "InterfacesAdded")) { [weak self] m in self?.added(m) })
        subscriptions.append(connection.subscribe(DBusMatchRule(sender: BlueZ.service, interface: BlueZ.objectManager,
                                                                member: "InterfacesRemoved")) { [weak self] m in self?.removed(m) })
        subscriptions.append(connection.subscribe(DBusMatchRule(sender: BlueZ.service, pathNamespace: "/org/bluez",
                                                                interface: BlueZ.properties, member: "PropertiesChanged")) { [weak self] m in
            self?.changed(m)
        })
        subscriptions.append(connection.watchNameOwner(BlueZ.service) { [weak self] owner in self?.ownerChanged(owner) })
    }

    public func stop() {
        for s in subscriptions { connection.unsubscribe(s) }
        subscriptions.removeAll()
        loadGeneration += 1
        objects.removeAll()
        isAvailable = false
        owner = nil
    }

    // MARK: Queries

    public var adapters: [Adapter1] {
        objects.compactMap { p, i in i[BlueZ.adapter1].map { Adapter1(path: p, properties: $0) } }.sorted { $0.path < $1.path }
    }

    public var devices: [Device1] {
        objects.compactMap { p, i in i[BlueZ.device1].map { Device1(path: p, properties: $0) } }.sorted { $0.path < $1.path }
    }

    public func device(at path: String) -> Device1? { objects[path]?[BlueZ.device1].map { Device1(path: path, properties: $0) } }
    public func adapter(at path: String) -> Adapter1? { objects[path]?[BlueZ.adapter1].map { Adapter1(path: path, properties: $0) } }

    /// The GATT characteristics below a device object.
    public func characteristics(of devicePath: String) -> [GattCharacteristic1] {
        let prefix = devicePath + "/"
        return objects.compactMap { p, i in
            guard p.hasPrefix(prefix), let props = i[BlueZ.gattCharacteristic1] else { return nil }
            return GattCharacteristic1(path: p, properties: props)
        }.sorted { $0.path < $1.path }
    }

    /// `Battery1.Percentage` of a device, if BlueZ's battery plugin exposes it.
    public func batteryPercentage(of devicePath: String) -> Int? { objects[devicePath]?[BlueZ.battery1]?["Percentage"]?.int }

    // MARK: Signal handling

    private func ownerChanged(_ newOwner: String?) {
        guard newOwner != owner || (newOwner != nil && !isAvailable) else { return }
        let wasAvailable = isAvailable
        owner = newOwner
        loadGeneration += 1
        if wasAvailable {
            objects.removeAll()
            isAvailable = false
            logger.notice("bluetoothd left the bus")
            onAvailabilityChanged?(false)
        }
        guard newOwner != nil else { return }
        let gen = loadGeneration
        connection.call(.methodCall(destination: BlueZ.service, path: "/", interface: BlueZ.objectManager,
                                    method: "GetManagedObjects")) { [weak self] r in
            guard let self, gen == self.loadGeneration else { return }
            switch r {
            case .failure(let e):
                self.logger.error("GetManagedObjects failed: \(e)")
            case .success(let args):
                self.objects = Self.parseManagedObjects(args.first)
                self.isAvailable = true
                self.logger.info("bluetoothd is on the bus", metadata: ["objects": "\(self.objects.count)"])
                self.onAvailabilityChanged?(true)
            }
        }
    }

    static func parseManagedObjects(_ v: DBusValue?) -> [String: InterfaceProperties] {
        var out: [String: InterfaceProperties] = [:]
        for (path, ifaces) in v?.dictionary ?? [:] { out[path] = parseInterfaces(ifaces) }
        return out
    }

    static func parseInterfaces(_ v: DBusValue) -> InterfaceProperties {
        var out: InterfaceProperties = [:]
        for (name, props) in v.dictionary ?? [:] { out[name] = props.dictionary ?? [:] }
        return out
    }

    private func added(_ m: DBusMessage) {
        let a = m.arguments
        guard a.count == 2, let path = a[0].string else { return }
        let ifaces = Self.parseInterfaces(a[1])
        objects[path, default: [:]].merge(ifaces) { _, new in new }
        if isAvailable { onInterfacesAdded?(path, Array(ifaces.keys)) }
    }

    private func removed(_ m: DBusMessage) {
        let a = m.arguments
        guard a.count == 2, let path = a[0].string, let names = a[1].stringArray else { return }
        for n in names { objects[path]?[n] = nil }
        if objects[path]?.isEmpty == true { objects[path] = nil }
        if isAvailable { onInterfacesRemoved?(path, names) }
    }

    private func changed(_ m: DBusMessage) {
        guard let path = m.path else { return }
        // The hot path (one signal per notification): read in place, no values decoded or stored.
        if m.withChangedByteValue(of: BlueZ.gattCharacteristic1, { value in
            if isAvailable { onCharacteristicValue?(path, value) }
        }) { return }
        let a = m.arguments
        guard a.count >= 2, let iface = a[0].string, var changed = a[1].dictionary else { return }
        if iface == BlueZ.gattCharacteristic1, let value = changed.removeValue(forKey: "Value")?.bytes, isAvailable {
            value.withUnsafeBytes { onCharacteristicValue?(path, $0) }
        }
        // Properties of an interface we never saw added are still recorded (BlueZ may signal first).
        objects[path, default: [:]][iface, default: [:]].merge(changed) { _, new in new }
        if a.count >= 3, let invalidated = a[2].stringArray {
            for n in invalidated { objects[path]?[iface]?[n] = nil }
        }
        if isAvailable && !changed.isEmpty { onPropertiesChanged?(path, iface, changed) }
    }
}
