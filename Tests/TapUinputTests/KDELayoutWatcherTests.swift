import DBus
import EventLoop
import KeyboardLayout
import TapBLE
import TestKit
import Testing
@testable import TapUinput

/// KDE Plasma's layout from a stand-in for KWin's `org.kde.keyboard` (`/Layouts`) on a real
/// private bus: the same methods and signals KWin exports (Plasma cannot run here).
@Suite struct KDELayoutWatcherTests {
    @Test func followsKWinsLayoutListAndActiveIndex() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let kwin = try DBusConnection(bus: .address(bus.address), loop: loop)
        var list: [(String, String, String)] = [("us", "", "English (US)"), ("de", "nodeadkeys", "German (no dead keys)")]
        var active: UInt32 = 1
        let object = DBusObject(path: KDELayoutWatcher.path)
        object.add(DBusInterface(name: KDELayoutWatcher.interface, methods: [
            "getLayoutsList": DBusMethod(out: "a(sss)") { call in
                call.reply([.array(elementSignature: "(sss)", list.map { .structure([.string($0.0), .string($0.1), .string($0.2)]) })])
            },
            "getLayout": DBusMethod(out: "u") { call in call.reply([.uint32(active)]) },
        ]))
        try kwin.export(object)
        try kwin.requestName(KDELayoutWatcher.busName)

        let daemonSide = try DBusConnection(bus: .address(bus.address), loop: loop)
        var reports: [String] = []
        let watcher = KDELayoutWatcher(connection: daemonSide) { reports.append("\($0.summary) \($0.origin)") }
        #expect(loop.run(until: { reports.count == 1 }, timeoutMilliseconds: 5000))

        active = 0
        kwin.emitSignal(path: KDELayoutWatcher.path, interface: KDELayoutWatcher.interface, name: "layoutChanged", arguments: [.uint32(0)])
        #expect(loop.run(until: { reports.count == 2 }, timeoutMilliseconds: 5000))
        list = [("fr", "azerty", "French (AZERTY)"), ("us", "", "English (US)")]
        kwin.emitSignal(path: KDELayoutWatcher.path, interface: KDELayoutWatcher.interface, name: "layoutListChanged", arguments: [])
        #expect(loop.run(until: { reports.count == 3 }, timeoutMilliseconds: 5000))
        // An index past the list (a racing change) and a same-layout signal report nothing.
        active = 7
        kwin.emitSignal(path: KDELayoutWatcher.path, interface: KDELayoutWatcher.interface, name: "layoutChanged", arguments: [.uint32(7)])
        _ = loop.run(until: { false }, timeoutMilliseconds: 200)
        #expect(reports == ["de(nodeadkeys) kde", "us kde", "fr(azerty) kde"])
        #expect(watcher.current?.summary == "fr(azerty)")
    }

    @Test func entriesThatAreNotLayoutNamesAreSkipped() {
        #expect(KDELayoutWatcher.names(.structure([.string("de"), .string(""), .string("German")])) == LayoutNames(layout: "de"))
        #expect(KDELayoutWatcher.names(.structure([.string("us,ru"), .string(""), .string("x")])) == nil)
        #expect(KDELayoutWatcher.names(.structure([.string("de;x"), .string(""), .string("x")])) == nil)
        #expect(KDELayoutWatcher.names(.string("de")) == nil)
    }
}
