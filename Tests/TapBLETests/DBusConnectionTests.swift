import DBus
import TestKit
import EventLoop
import Foundation
import Logging
import Testing
@testable import TapBLE

/// The libdbus wrapper against a real private dbus-daemon: one connection exports an
/// object, another calls it.
@Suite struct DBusConnectionTests {
    let bus: PrivateBus
    let loop: EventLoop
    let server: DBusConnection
    let client: DBusConnection

    init() throws {
        bus = try PrivateBus()
        loop = try EventLoop()
        server = try DBusConnection(bus: .address(bus.address), loop: loop)
        client = try DBusConnection(bus: .address(bus.address), loop: loop)
    }

    func call(_ method: String, _ args: [DBusValue], interface: String = "org.test.Echo1",
              path: String = "/test") -> DBusReply? {
        var result: DBusReply?
        client.call(.methodCall(destination: server.uniqueName, path: path, interface: interface, method: method,
                                arguments: args)) { result = $0 }
        loop.run(until: { result != nil }, timeoutMilliseconds: 5000)
        return result
    }

    func exportEcho() throws -> DBusObject {
        let obj = DBusObject(path: "/test")
        var level: Int32 = 3
        obj.add(DBusInterface(name: "org.test.Echo1", methods: [
            "Echo": DBusMethod(in: "v", out: "v") { $0.reply($0.arguments) },
            "Fail": DBusMethod { $0.fail(DBusError(name: "org.test.Error.Nope", message: "no")) },
            "Later": DBusMethod(out: "s") { call in
                self.loop.schedule(afterMilliseconds: 20) { call.reply([.string("late")]) }
            },
            "Pipe": DBusMethod(out: "h") { call in
                var fds: [Int32] = [0, 0]
                pipe(&fds)
                _ = write(fds[1], "hi", 2)
                close(fds[1])
                call.reply([.unixFD(fds[0])])
                close(fds[0])   // the message holds its own dup
            },
        ], properties: [
            "Level": DBusProperty(signature: "i", get: { .int32(level) }, set: { v in level = Int32(v.int ?? 0) }),
            "Name": DBusProperty(signature: "s", get: { .string("echo") }),
        ]))
        try server.export(obj)
        return obj
    }

    static let samples: [DBusValue] = [
        .byte(7), .bool(true), .int16(-2), .uint16(65000), .int32(-70000), .uint32(4_000_000_000),
        .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .string("häh"), .objectPath("/a/b"), .signature("a{sv}"),
        .bytes([0, 1, 255]), .bytes([]),
        .strings(["x", "y"]), .array(elementSignature: "s", []),
        .dictionary(["Powered": .bool(true), "UUIDs": .strings(["c3ff0001"]), "Value": .bytes([3, 12])]),
        .structure([.int32(1), .string("two"), .variant(.uint16(3))]),
        .array(elementSignature: "{oa{sv}}", [.dictEntry(.objectPath("/x"), .dictionary(["k": .int32(1)]))]),
    ]

    @Test(arguments: samples) func valuesRoundTripThroughTheDaemon(_ value: DBusValue) throws {
        _ = try exportEcho()
        let reply = try #require(call("Echo", [.variant(value)]))
        #expect(try reply.get() == [.variant(value)])
    }

    @Test func messagesLargerThanTheSocketBufferUseTheWriteWatch() throws {
        _ = try exportEcho()
        // 1 MB each way cannot be written in one go: libdbus enables its write watch and the
        // loop must drive it until the whole message is out.
        let big = DBusValue.bytes((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var result: DBusReply?
        client.call(.methodCall(destination: server.uniqueName, path: "/test", interface: "org.test.Echo1", method: "Echo",
                                arguments: [.variant(big)])) { result = $0 }
        loop.run(until: { result != nil }, timeoutMilliseconds: 20_000)
        #expect(try result?.get() == [.variant(big)])
    }

    @Test func errorsAsyncRepliesAndUnknownMethods() throws {
        _ = try exportEcho()
        #expect(call("Fail", []).map { if case .failure(let e) = $0 { e.name } else { "" } } == "org.test.Error.Nope")
        #expect(try call("Later", [])?.get() == [.string("late")])
        let unknown = call("Missing", [])
        guard case .failure(let e)? = unknown else { Issue.record("expected failure"); return }
        #expect(e.name == "org.freedesktop.DBus.Error.UnknownMethod")
        let wrongArgs = call("Echo", [.string("not a variant")])
        guard case .failure(let e2)? = wrongArgs else { Issue.record("expected failure"); return }
        #expect(e2.name == "org.freedesktop.DBus.Error.InvalidArgs")
    }

    @Test func unixFileDescriptorsArePassed() throws {
        _ = try exportEcho()
        let args = try #require(call("Pipe", [])).get()
        guard case .unixFD(let fd)? = args.first else { Issue.record("no fd: \(args)"); return }
        var buf = [UInt8](repeating: 0, count: 8)
        let n = read(fd, &buf, 8)
        close(fd)
        #expect(n == 2 && buf[0] == UInt8(ascii: "h"))
    }

    @Test func propertiesGetGetAllSetAndChangedSignal() throws {
        _ = try exportEcho()
        let props = "org.freedesktop.DBus.Properties"
        #expect(try call("Get", [.string("org.test.Echo1"), .string("Level")], interface: props)?.get() == [.variant(.int32(3))])
        var changed: [String: DBusValue]?
        client.subscribe(DBusMatchRule(sender: server.uniqueName, path: "/test", interface: props,
                                       member: "PropertiesChanged", arg0: "org.test.Echo1")) { msg in
            changed = msg.arguments[1].dictionary
        }
        #expect(try call("Set", [.string("org.test.Echo1"), .string("Level"), .variant(.int32(9))], interface: props)?.get() == [])
        let all = try #require(call("GetAll", [.string("org.test.Echo1")], interface: props)).get()
        #expect(all.first?.dictionary == ["Level": .int32(9), "Name": .string("echo")])
        loop.run(until: { changed != nil }, timeoutMilliseconds: 2000)
        #expect(changed == ["Level": .int32(9)])
        guard case .failure(let e)? = call("Set", [.string("org.test.Echo1"), .string("Name"), .variant(.string("x"))], interface: props) else {
            Issue.record("read-only property was set"); return
        }
        #expect(e.name == "org.freedesktop.DBus.Error.PropertyReadOnly")
        let xml = try #require(call("Introspect", [], interface: "org.freedesktop.DBus.Introspectable")).get()
        #expect(xml.first?.string?.contains("<method name=\"Echo\">") == true)
    }

    @Test func propertyClientHelpers() throws {
        _ = try exportEcho()
        var got: Result<DBusValue, DBusError>?
        var all: Result<[String: DBusValue], DBusError>?
        var set: DBusReply?
        client.setProperty(destination: server.uniqueName, path: "/test", interface: "org.test.Echo1", name: "Level",
                           value: .int32(-5)) { set = $0 }
        client.getProperty(destination: server.uniqueName, path: "/test", interface: "org.test.Echo1", name: "Level") { got = $0 }
        client.getAllProperties(destination: server.uniqueName, path: "/test", interface: "org.test.Echo1") { all = $0 }
        loop.run(until: { got != nil && all != nil && set != nil }, timeoutMilliseconds: 3000)
        #expect(try set?.get() == [])
        #expect(try got?.get() == .int32(-5))
        #expect(try all?.get() == ["Level": .int32(-5), "Name": .string("echo")])
        var missing: Result<DBusValue, DBusError>?
        client.getProperty(destination: server.uniqueName, path: "/test", interface: "org.test.Echo1", name: "Nope") { missing = $0 }
        loop.run(until: { missing != nil }, timeoutMilliseconds: 3000)
        guard case .failure(let e)? = missing else { Issue.record("missing property read"); return }
        #expect(e.name == "org.freedesktop.DBus.Error.UnknownProperty")
    }

    @Test func signalMatchesFilterByPathNamespaceMemberAndArg0() throws {
        var got: [String] = []
        client.subscribe(DBusMatchRule(sender: server.uniqueName, pathNamespace: "/org/bluez", interface: "org.test.S",
                                       member: "Ping", arg0: "yes")) { got.append($0.path ?? "") }
        // Let the AddMatch reach the daemon before emitting.
        _ = try client.callBlocking(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", method: "GetId"))
        server.emitSignal(path: "/org/bluez/hci0", interface: "org.test.S", name: "Ping", arguments: [.string("yes")])
        server.emitSignal(path: "/org/bluezz", interface: "org.test.S", name: "Ping", arguments: [.string("yes")])
        server.emitSignal(path: "/org/bluez/hci1", interface: "org.test.S", name: "Ping", arguments: [.string("no")])
        server.emitSignal(path: "/org/bluez/hci2", interface: "org.test.S", name: "Pong", arguments: [.string("yes")])
        server.emitSignal(path: "/org/bluez", interface: "org.test.S", name: "Ping", arguments: [.string("yes")])
        loop.run(until: { got.count >= 2 }, timeoutMilliseconds: 2000)
        loop.run(until: { false }, timeoutMilliseconds: 100)
        #expect(got == ["/org/bluez/hci0", "/org/bluez"])
    }

    @Test func nameOwnerTrackingSeesAppearAndVanish() throws {
        var owners: [String?] = []
        client.watchNameOwner("org.test.Owned") { owners.append($0) }
        loop.run(until: { owners.count == 1 }, timeoutMilliseconds: 2000)
        let third = try DBusConnection(bus: .address(bus.address), loop: loop)
        try third.requestName("org.test.Owned")
        loop.run(until: { owners.count == 2 }, timeoutMilliseconds: 2000)
        let thirdName = third.uniqueName
        #expect(client.owner(of: "org.test.Owned") == thirdName)
        third.close()
        loop.run(until: { owners.count == 3 }, timeoutMilliseconds: 2000)
        #expect(owners == [nil, thirdName, nil])
    }

    @Test func disconnectIsReportedAndCallsFail() throws {
        var lost = false
        client.onDisconnected = { lost = true }
        bus.stop()
        loop.run(until: { lost }, timeoutMilliseconds: 3000)
        #expect(lost)
        var r: DBusReply?
        client.call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                interface: "org.freedesktop.DBus", method: "GetId")) { r = $0 }
        loop.run(until: { r != nil }, timeoutMilliseconds: 2000)
        guard case .failure? = r else { Issue.record("call on a dead bus succeeded"); return }
    }

    @Test func callTimesOut() throws {
        let obj = DBusObject(path: "/slow")
        obj.add(DBusInterface(name: "org.test.Slow", methods: ["Never": DBusMethod { _ in }]))
        try server.export(obj)
        var r: DBusReply?
        let start = MonotonicInstant.now()
        client.call(.methodCall(destination: server.uniqueName, path: "/slow", interface: "org.test.Slow", method: "Never"),
                    timeoutMilliseconds: 150) { r = $0 }
        loop.run(until: { r != nil }, timeoutMilliseconds: 3000)
        guard case .failure(let e)? = r else { Issue.record("no timeout"); return }
        #expect(e.name == "org.freedesktop.DBus.Error.NoReply")
        #expect(MonotonicInstant.now().nanoseconds(since: start) >= 140_000_000)
    }
}

/// The StartNotify hot path: `PropertiesChanged` of a characteristic's `Value`, read in place.
@Suite struct CharacteristicValueSignalTests {
    let bus: PrivateBus
    let loop: EventLoop
    let bluez: DBusConnection
    let client: DBusConnection

    init() throws {
        bus = try PrivateBus()
        loop = try EventLoop()
        bluez = try DBusConnection(bus: .address(bus.address), loop: loop)
        client = try DBusConnection(bus: .address(bus.address), loop: loop)
    }

    /// Emits `PropertiesChanged` with these contents and returns what the fast path made of it:
    /// nil when it declined (the general path's turn), else the bytes it saw.
    func fastPath(interface: String, _ changed: [String: DBusValue], invalidated: [String] = []) throws -> [UInt8]? {
        var outcome: [UInt8]??
        let sub = client.subscribe(DBusMatchRule(sender: bluez.uniqueName, interface: BlueZ.properties, member: "PropertiesChanged")) { m in
            var bytes: [UInt8]?
            let taken = m.withChangedByteValue(of: BlueZ.gattCharacteristic1) { bytes = Array($0) }
            outcome = .some(taken ? bytes : nil)
        }
        defer { client.unsubscribe(sub) }
        _ = try client.callBlocking(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", method: "GetId"))
        bluez.emitSignal(path: "/org/bluez/hci0/dev_1/service1/char2", interface: BlueZ.properties, name: "PropertiesChanged",
                         arguments: [.string(interface), .dictionary(changed), .strings(invalidated)])
        loop.run(until: { outcome != nil }, timeoutMilliseconds: 2000)
        return try #require(outcome)
    }

    @Test func aValueOnlyChangeIsReadInPlace() throws {
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, ["Value": .bytes([3, 0, 0, 0])]) == [3, 0, 0, 0])
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, ["Value": .bytes([])]) == [])
    }

    @Test func anythingElseTakesTheGeneralPath() throws {
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, ["Value": .bytes([1]), "Notifying": .bool(true)]) == nil)
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, ["Notifying": .bool(true)]) == nil)
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, ["Value": .bytes([1])], invalidated: ["Flags"]) == nil)
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, ["Value": .string("x")]) == nil)
        #expect(try fastPath(interface: BlueZ.gattCharacteristic1, [:]) == nil)
        #expect(try fastPath(interface: BlueZ.device1, ["Value": .bytes([1])]) == nil)
    }

    /// The object model routes every `Value` to `onCharacteristicValue`, never stores it, and
    /// still sees the other properties of a mixed change.
    @Test func theModelStreamsValuesAndKeepsTheRest() throws {
        let root = DBusObject(path: "/")
        root.add(DBusInterface(name: BlueZ.objectManager, methods: [
            "GetManagedObjects": DBusMethod(out: "a{oa{sa{sv}}}") { $0.reply([.array(elementSignature: "{oa{sa{sv}}}", [])]) },
        ]))
        try bluez.export(root)
        try bluez.requestName(BlueZ.service)
        let model = BlueZObjectModel(connection: client, logger: Logger(label: "test"))
        var values: [[UInt8]] = [], changes: [[String]] = []
        model.onCharacteristicValue = { _, v in values.append(Array(v)) }
        model.onPropertiesChanged = { _, _, c in changes.append(c.keys.sorted()) }
        model.start()
        loop.run(until: { model.isAvailable }, timeoutMilliseconds: 3000)
        let path = "/org/bluez/hci0/dev_1/service1/char2"
        func emit(_ changed: [String: DBusValue]) {
            bluez.emitSignal(path: path, interface: BlueZ.properties, name: "PropertiesChanged",
                             arguments: [.string(BlueZ.gattCharacteristic1), .dictionary(changed), .strings([])])
        }
        emit(["Value": .bytes([3, 0, 0, 0])])
        emit(["Value": .bytes([5]), "Notifying": .bool(true)])
        loop.run(until: { values.count == 2 && changes.count == 1 }, timeoutMilliseconds: 2000)
        #expect(values == [[3, 0, 0, 0], [5]])
        #expect(changes == [["Notifying"]])
        #expect(model.objects[path]?[BlueZ.gattCharacteristic1]?["Notifying"]?.bool == true)
        #expect(model.objects[path]?[BlueZ.gattCharacteristic1]?["Value"] == nil)
    }
}
