import Glibc
import Testing
import TestKit
@testable import TapBLE
@testable import TapUinput

/// Two TAPs as one keyboard through the whole daemon: roles from `[hands]` and `hands.conf`,
/// one-hand and two-hand chords, and a hand's disconnect mid-chord (real loop, real private bus,
/// ``FakeTapSource`` at the BLE seam, frames into a ``RecordingSink``).
@Suite(.serialized) struct DaemonHandsTests {
    /// Both thumbs are a two-hand chord, so a thumb alone waits for the other hand; the index
    /// finger and the middle finger (drag lock) start none and play at once.
    static let keymap = """
        name = "hands"
        [layers.base]
        "x...." = "a"
        ".x..." = "b"
        "..x.." = "drag-lock"
        "xx..." = { tap = "c", double = "d" }
        "....x|x...." = "space"
        """
    static let named = keymap.replacingOccurrences(of: "[layers.base]", with: """
        [hands]
        left = "Tap_L"
        right = "aa:00:00:00:00:02"
        [layers.base]
        """)

    typealias Harness = DaemonTests.Harness

    @Test func rolesComeFromTheKeymapByNameOrAddressBeforeHandsConf() throws {
        // hands.conf says …:01 is the right hand and …:03 the left: the keymap's [hands] wins
        // for …:01; …:03, which the keymap does not name, takes the file's.
        let h = try Harness(files: ["keymap.toml": Self.named, "hands.conf": "AA:00:00:00:00:01 right\naa:00:00:00:00:03 LEFT # spare\n"])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_L")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_R")
        h.devices.connect("AA:00:00:00:00:03", name: "Tap_3")
        h.devices.connect("AA:00:00:00:00:04", name: "Tap_4")
        let devices = h.daemon.controlStatus().devices
        #expect(devices.map(\.role) == ["left", "right", "left", ""])
        // On the bus and in the text `tap-uinput status` prints.
        #expect(devices.map { ControlStatus.Device(dbus: $0.dbusValue)?.role } == ["left", "right", "left", ""])
        #expect(ControlText.status(h.daemon.controlStatus()).contains("left hand, layer base"))
    }

    @Test func anEditOfHandsConfTakesEffectWithoutAReload() throws {
        let h = try Harness(files: ["keymap.toml": Self.keymap])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_1")
        #expect(h.daemon.controlStatus().devices.map(\.role) == [""])
        try writeFile("\(h.dir)/tapuinput/hands.conf", "AA:00:00:00:00:01 right\n")
        #expect(h.loop.run(until: { h.daemon.controlStatus().devices.map(\.role) == ["right"] }, timeoutMilliseconds: 5000))
    }

    @Test func oneHandChordsFromEachHandAndATwoHandChord() throws {
        let h = try Harness(files: ["keymap.toml": Self.named])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_L")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_R")
        h.devices.tap("AA:00:00:00:00:01", ".x...")                 // starts no two-hand chord: at once
        h.devices.tap("AA:00:00:00:00:02", ".x...")
        #expect(h.keys == ["KEY_B 1", "KEY_B 0", "KEY_B 1", "KEY_B 0"])
        h.devices.tap("AA:00:00:00:00:02", "x....")                 // waits for the left thumb...
        #expect(h.keys.count == 4)
        h.clock.advance(milliseconds: 100)              // ...which does not come: "a"
        #expect(h.keys.suffix(2) == ["KEY_A 1", "KEY_A 0"])
        h.devices.tap("AA:00:00:00:00:01", "x....")
        h.clock.advance(milliseconds: 20)
        h.devices.tap("AA:00:00:00:00:02", "x....")                 // inside combo-window-ms: both thumbs
        h.clock.advance(milliseconds: 1000)
        #expect(h.keys.suffix(2) == ["KEY_SPACE 1", "KEY_SPACE 0"])
        #expect(h.keys.count == 8)
    }

    @Test func aHandNamedByAddressIsPresentFromItsConnectOn() throws {
        // The right hand is named by address: the engine knows its role from the keymap, but only
        // the connect tells it the hand is there, so the left thumb's first tap waits for it.
        let h = try Harness(files: ["keymap.toml": Self.named])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_L")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_R")
        h.devices.tap("AA:00:00:00:00:01", "x....")
        #expect(h.keys.isEmpty)
        h.clock.advance(milliseconds: 20)
        h.devices.tap("AA:00:00:00:00:02", "x....")
        h.clock.advance(milliseconds: 1000)
        #expect(h.keys == ["KEY_SPACE 1", "KEY_SPACE 0"])
    }

    @Test func aHandsDisconnectReleasesThePairsDragLockAndLeavesAnotherDeviceAlone() throws {
        let h = try Harness(files: ["keymap.toml": Self.named])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_L")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_R")
        h.devices.connect("AA:00:00:00:00:03", name: "Tap_3")        // a device of its own
        h.devices.tap("AA:00:00:00:00:01", "..x..")                 // drag lock: the left button stays down
        h.devices.tap("AA:00:00:00:00:03", "xx...")                 // pending: a double tap may follow
        #expect(h.buttons == ["BTN_LEFT 1"])
        h.devices.disconnect("AA:00:00:00:00:01")
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
        #expect(h.keys.isEmpty)
        h.clock.advance(milliseconds: 1000)             // the other device's pending tap survives
        #expect(h.keys == ["KEY_C 1", "KEY_C 0"])
        h.devices.tap("AA:00:00:00:00:02", ".x...")                 // and the remaining hand still types
        #expect(h.keys.suffix(2) == ["KEY_B 1", "KEY_B 0"])
    }

    @Test func aTapWaitingForTheOtherHandGoesUntypedWithItsHand() throws {
        let h = try Harness(files: ["keymap.toml": Self.named])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_L")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_R")
        h.devices.tap("AA:00:00:00:00:01", "x....")
        #expect(h.clock.armedDeadline != nil)
        h.devices.disconnect("AA:00:00:00:00:01")
        h.clock.advance(milliseconds: 1000)
        #expect(h.keys.isEmpty)
        h.devices.tap("AA:00:00:00:00:02", "x....")                 // the right thumb alone, after the window
        h.clock.advance(milliseconds: 100)
        #expect(h.keys == ["KEY_A 1", "KEY_A 0"])
    }

    @Test func handsConfIsReadAtStartAndOnReload() throws {
        let h = try Harness(files: ["keymap.toml": Self.keymap, "hands.conf": "AA:00:00:00:00:01 left\nAA:00:00:00:00:02 right\nnot a line\n"])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_1")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_2")
        #expect(h.daemon.controlStatus().devices.map(\.role) == ["left", "right"])
        h.devices.tap("AA:00:00:00:00:01", "x....")
        h.devices.tap("AA:00:00:00:00:02", "x....")
        h.clock.advance(milliseconds: 1000)
        #expect(h.keys == ["KEY_SPACE 1", "KEY_SPACE 0"])
        try writeFile("\(h.dir)/tapuinput/hands.conf", "AA:00:00:00:00:01 left\n")
        try h.daemon.controlReload()
        #expect(h.daemon.controlStatus().devices.map(\.role) == ["left", ""])
        h.devices.tap("AA:00:00:00:00:02", "x....")                 // a device of its own now: at once
        #expect(h.keys.suffix(2) == ["KEY_A 1", "KEY_A 0"])
    }

    @Test func aKeymapSwitchLooksTheRolesUpAgainOnceTheEngineIsIdle() throws {
        let h = try Harness(files: ["keymap.toml": Self.keymap, "paired.toml": Self.named])
        h.devices.connect("AA:00:00:00:00:01", name: "Tap_L")
        h.devices.connect("AA:00:00:00:00:02", name: "Tap_R")
        #expect(h.daemon.controlStatus().devices.map(\.role) == ["", ""])
        h.devices.tap("AA:00:00:00:00:01", "..x..")                 // drag lock held: no switch yet
        try h.daemon.controlSetKeymap(path: "paired.toml")
        #expect(h.daemon.controlStatus().devices.map(\.role) == ["", ""])
        h.devices.tap("AA:00:00:00:00:01", "..x..")                 // released: the switch and the roles
        #expect(h.buttons == ["BTN_LEFT 1", "BTN_LEFT 0"])
        #expect(h.daemon.controlStatus().devices.map(\.role) == ["left", "right"])
        h.devices.tap("AA:00:00:00:00:01", "x....")
        h.devices.tap("AA:00:00:00:00:02", "x....")
        h.clock.advance(milliseconds: 1000)
        #expect(h.keys == ["KEY_SPACE 1", "KEY_SPACE 0"])
        try h.daemon.controlSetKeymap(path: "")
        #expect(h.daemon.controlStatus().devices.map(\.role) == ["", ""])
    }

    @Test func handsConfRoundTripsAndBoundsWhatItReads() throws {
        var problems: [String] = []
        let parsed = HandAssignments(text: "# c\nF0:E2:E0:00:00:01 left\nf0:e2:e0:00:00:02\tRight\nxx left\nAA:BB right extra\n",
                                     problems: &problems)
        #expect(parsed.roles == ["F0:E2:E0:00:00:01": .left, "F0:E2:E0:00:00:02": .right])
        #expect(problems == ["line 4: expected \"ADDRESS left\" or \"ADDRESS right\"",
                             "line 5: expected \"ADDRESS left\" or \"ADDRESS right\""])
        let dir = try makeTemporaryDirectory("hands")
        defer { removeTree(dir) }
        try parsed.save(path: "\(dir)/sub/hands.conf")
        problems = []
        #expect(HandAssignments.load(path: "\(dir)/sub/hands.conf", problems: &problems) == parsed)
        #expect(problems.isEmpty)
        #expect(HandAssignments.load(path: "\(dir)/missing", problems: &problems).roles.isEmpty && problems.isEmpty)
        try writeFile("\(dir)/big", String(repeating: "#", count: HandAssignments.maximumBytes + 1))
        #expect(HandAssignments.load(path: "\(dir)/big", problems: &problems).roles.isEmpty)
        #expect(problems.count == 1 && problems[0].contains("larger than"))
        mkfifo("\(dir)/fifo", 0o600)   // opening a FIFO would block the daemon: not read at all
        problems = []
        #expect(HandAssignments.load(path: "\(dir)/fifo", problems: &problems).roles.isEmpty)
        #expect(problems.count == 1 && problems[0].contains("not a regular file"))
    }

    @Test func assigningAHandTakesItFromTheDeviceThatHadIt() {
        var a = HandAssignments(roles: ["AA:01": .left, "AA:02": .right])
        #expect(a.assign(.left, to: "aa:03") == ["AA:01"])
        #expect(a.roles == ["AA:02": .right, "AA:03": .left])
        #expect(a.assign(.left, to: "AA:03").isEmpty)
        #expect(a.assign(nil, to: "AA:02").isEmpty && a.roles == ["AA:03": .left])
    }
}
