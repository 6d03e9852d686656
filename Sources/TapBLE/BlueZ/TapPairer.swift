import DBus
import EventLoop
import Logging

/// Pairs a TAP through BlueZ, as a person would in their desktop's Bluetooth settings.
///
/// Registers a ``PairingAgent`` (NoInputNoOutput), powers the adapter if needed, discovers
/// LE devices with a filter on the TAP service UUID, takes the first unpaired TAP (or the
/// one at `address`), stops discovery, calls `Device1.Pair`, then sets `Trusted` so BlueZ
/// lets it reconnect by itself. A device is a TAP when it advertises the TAP service or,
/// as a fallback (the real device puts the UUID only in its scan response), when its name
/// starts with "Tap". Everything runs on the loop; ``start(timeoutMilliseconds:completion:)``
/// calls back once.
public final class TapPairer {
    /// Steps reported to ``onProgress``, for the command line.
    public enum Progress: Equatable, Sendable {
        case poweringAdapter(String)
        case discovering(adapter: String)
        case found(address: String, name: String)
        case pairing(address: String)
        case agentRequest(String)
    }

    /// The paired device.
    public struct Paired: Equatable, Sendable {
        public var address: String
        public var name: String
        public var path: String
        public var wasAlreadyPaired: Bool
    }

    public var onProgress: ((Progress) -> Void)?

    private let connection: DBusConnection
    private let loop: EventLoop
    private let model: BlueZObjectModel
    private let agent: PairingAgent
    private let address: String?
    private var completion: ((Result<Paired, DBusError>) -> Void)?
    private var adapterPath: String?
    private var discovering = false
    private var chosen: String?
    private var timer: EventLoop.Timer?

    /// - Parameter address: pair this device only (e.g. `F0:E2:E0:00:00:01`); nil = the first TAP found.
    public init(connection: DBusConnection, loop: EventLoop, address: String?, logger: Logger) {
        self.connection = connection
        self.loop = loop
        self.address = address?.uppercased()
        self.model = BlueZObjectModel(connection: connection, logger: logger)
        self.agent = PairingAgent(connection: connection)
        agent.onRequest = { [unowned self] in self.onProgress?(.agentRequest($0)) }
        model.onAvailabilityChanged = { [unowned self] up in if up { self.begin() } }
        model.onInterfacesAdded = { [unowned self] path, _ in self.consider(path) }
        model.onPropertiesChanged = { [unowned self] path, iface, _ in
            if iface == BlueZ.adapter1 { self.begin() } else if iface == BlueZ.device1 { self.consider(path) }
        }
    }

    /// Starts; `completion` runs once, on the loop, with the paired device or why not.
    public func start(timeoutMilliseconds: Int, completion: @escaping (Result<Paired, DBusError>) -> Void) {
        self.completion = completion
        timer = loop.schedule(afterMilliseconds: timeoutMilliseconds) { [unowned self] in
            self.timer = nil
            self.finish(.failure(DBusError(name: "org.tapuinput.Error.Timeout", message: self.chosen == nil
                ? "no unpaired TAP found: switch it on and bring it close (a TAP that is already paired to another computer must be unpaired there first)"
                : "pairing did not finish in time")))
        }
        model.start()
    }

    private func begin() {
        guard completion != nil, adapterPath == nil || !discovering, chosen == nil else { return }
        if let target = address, let d = model.devices.first(where: { $0.address?.uppercased() == target }), d.paired {
            return trust(d.path, address: target, name: d.alias ?? d.name ?? target, alreadyPaired: true)
        }
        guard let adapter = model.adapters.first(where: \.powered) ?? model.adapters.first else {
            return finish(.failure(DBusError(name: "org.tapuinput.Error.NoAdapter", message: "no Bluetooth adapter")))
        }
        guard adapter.powered else {
            if adapterPath != adapter.path {
                adapterPath = adapter.path
                onProgress?(.poweringAdapter(adapter.path))
                adapter.setPowered(true, on: connection) { _ in }   // PropertiesChanged brings us back here
            }
            return
        }
        adapterPath = adapter.path
        discovering = true
        agent.register { [unowned self] error in
            if let error { return self.finish(.failure(error)) }
            self.startDiscovery(on: adapter.path)
        }
    }

    private func startDiscovery(on adapter: String) {
        let filter: DBusValue = .dictionary(["UUIDs": .variant(.strings([TapUUID.tapService])), "Transport": .variant(.string("le"))])
        adapterCall(adapter, "SetDiscoveryFilter", [filter]) { [unowned self] _ in
            // A filter BlueZ refuses only widens discovery; the TAP test below still applies.
            self.adapterCall(adapter, "StartDiscovery", []) { [unowned self] result in
                if case .failure(let e) = result, e.name != "org.bluez.Error.InProgress" { return self.finish(.failure(e)) }
                self.onProgress?(.discovering(adapter: adapter))
                for d in self.model.devices { self.consider(d.path) }
            }
        }
    }

    private func consider(_ path: String) {
        guard completion != nil, discovering, chosen == nil, let d = model.device(at: path), let addr = d.address?.uppercased() else { return }
        let name = d.alias ?? d.name ?? addr
        let isTap = d.uuids.contains(TapUUID.tapService) || (d.name ?? d.alias ?? "").hasPrefix("Tap")
        guard isTap, address == nil || address == addr else { return }
        if d.paired {
            guard address != nil else { return }   // pairing "any TAP" skips those already paired
            return trust(path, address: addr, name: name, alreadyPaired: true)
        }
        chosen = path
        onProgress?(.found(address: addr, name: name))
        stopDiscovery()
        onProgress?(.pairing(address: addr))
        connection.call(.methodCall(destination: BlueZ.service, path: path, interface: BlueZ.device1, method: "Pair"),
                        timeoutMilliseconds: 60_000) { [unowned self] result in
            switch result {
            case .success: self.trust(path, address: addr, name: name, alreadyPaired: false)
            case .failure(let e) where e.name == "org.bluez.Error.AlreadyExists":
                self.trust(path, address: addr, name: name, alreadyPaired: true)
            case .failure(let e): self.finish(.failure(e))
            }
        }
    }

    private func trust(_ path: String, address: String, name: String, alreadyPaired: Bool) {
        chosen = path
        connection.setProperty(destination: BlueZ.service, path: path, interface: BlueZ.device1, name: "Trusted",
                               value: .bool(true)) { [unowned self] result in
            if case .failure(let e) = result { return self.finish(.failure(e)) }
            self.finish(.success(Paired(address: address, name: name, path: path, wasAlreadyPaired: alreadyPaired)))
        }
    }

    private func stopDiscovery() {
        guard discovering, let adapter = adapterPath else { return }
        discovering = false
        adapterCall(adapter, "StopDiscovery", []) { _ in }
    }

    private func finish(_ result: Result<Paired, DBusError>) {
        guard let completion else { return }
        self.completion = nil
        if let timer { loop.cancel(timer) }
        stopDiscovery()
        agent.unregister()
        completion(result)
    }

    private func adapterCall(_ adapter: String, _ method: String, _ args: [DBusValue], reply: @escaping (DBusReply) -> Void) {
        connection.call(.methodCall(destination: BlueZ.service, path: adapter, interface: BlueZ.adapter1,
                                    method: method, arguments: args), reply: reply)
    }

    /// Removes a device (and its bond) from BlueZ: `Adapter1.RemoveDevice`.
    public static func forget(address: String, model: BlueZObjectModel, connection: DBusConnection,
                              completion: @escaping (Result<String, DBusError>) -> Void) {
        let target = address.uppercased()
        guard let d = model.devices.first(where: { $0.address?.uppercased() == target || $0.name == address || $0.alias == address }),
              let adapter = d.adapter else {
            return completion(.failure(DBusError(name: "org.tapuinput.Error.UnknownDevice", message: "no device \(address) known to BlueZ")))
        }
        connection.call(.methodCall(destination: BlueZ.service, path: adapter, interface: BlueZ.adapter1,
                                    method: "RemoveDevice", arguments: [.objectPath(d.path)])) { result in
            switch result {
            case .success: completion(.success(d.alias ?? d.name ?? target))
            case .failure(let e): completion(.failure(e))
            }
        }
    }
}
