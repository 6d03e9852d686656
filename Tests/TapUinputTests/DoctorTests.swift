import Glibc
import TestKit
import Testing
@testable import TapUinput

/// The diagnosis, link by link: each broken link gives a problem with its fix, and a healthy
/// system gives none. (The facts come from ``DoctorProbe`` on a real system; its reading is
/// checked below against real parts: a private bus, keymap files, a uinput path.)
@Suite struct DoctorTests {
    /// Everything working: a powered adapter, one TAP held by the daemon in controller mode.
    static var healthy: DoctorFacts {
        var f = DoctorFacts()
        f.adapters = [.init(address: "00:11:22:33:44:55", powered: true)]
        f.taps = [.init(address: "AA:BB:CC:DD:EE:01", name: "Tap_1")]
        f.unit = .init(fileState: "enabled", activeState: "active")
        var status = ControlStatus(version: "0.4.0", devices: [ControlStatus.Device(id: "AA:BB:CC:DD:EE:01", name: "Tap_1", connected: true,
                                                                                     battery: 80, mode: "controller")])
        status.focusSources = ["x11", "dbus"]
        status.layout = "de"
        status.layoutOrigin = "x11"
        f.daemon = status
        f.keymapName = "TapCode (English)"
        f.focusSources = ["x11"]
        return f
    }

    static func problems(_ f: DoctorFacts) -> [Doctor.Finding] { Doctor.diagnose(f).filter { $0.status == .problem } }

    @Test func aHealthySystemHasNoProblem() {
        let findings = Doctor.diagnose(Self.healthy)
        #expect(Doctor.healthy(findings))
        #expect(findings.allSatisfy { $0.status == .ok })
        #expect(findings.map(\.check) == ["uinput", "bluetoothd", "adapter", "device AA:BB:CC:DD:EE:01 (Tap_1)", "service",
                                          "keymap", "desktop", "layout"])
    }

    /// One link broken at a time, with the check that must name it and a piece of its fix.
    enum Break: String, CaseIterable, Sendable {
        case moduleAbsent, noACL, bluetoothdStopped, adapterOff, noTap, notBonded, notConnected, heldByAnotherProgram,
             textMode, unitStopped, unitDisabled, brokenKeymap

        func apply(to f: inout DoctorFacts) {
            switch self {
            case .moduleAbsent: f.uinputExists = false
            case .noACL: f.uinputWritable = false; f.seat = "seat0"
            case .bluetoothdStopped: f.bluez = false
            case .adapterOff: f.adapters[0].powered = false
            case .noTap: f.taps = []
            case .notBonded: f.taps[0].bonded = false
            case .notConnected: f.taps[0].connected = false
            case .heldByAnotherProgram: f.daemon!.devices[0].connected = false
            case .textMode: f.daemon!.devices[0].mode = "text"
            case .unitStopped: f.daemon = nil; f.unit!.activeState = "failed"
            case .unitDisabled: f.unit!.fileState = "disabled"
            case .brokenKeymap: f.keymapErrors = ["/k/keymap.toml:3:7: error: unknown key name"]
            }
        }

        var expected: (check: String, fix: String) {
            let tap = "device AA:BB:CC:DD:EE:01 (Tap_1)"
            return switch self {
            case .moduleAbsent: ("uinput", "modprobe uinput")
            case .noACL: ("uinput", "udevadm trigger")
            case .bluetoothdStopped: ("bluetoothd", "systemctl enable --now bluetooth")
            case .adapterOff: ("adapter", "bluetoothctl power on")
            case .noTap: ("device", "tap-uinput pair")
            case .notBonded: (tap, "bluetoothctl remove AA:BB:CC:DD:EE:01")
            case .notConnected: (tap, "bluetoothctl connect")
            case .heldByAnotherProgram: (tap, "close the other program")
            case .textMode: (tap, "mode --device AA:BB:CC:DD:EE:01 controller")
            case .unitStopped: ("service", "journalctl --user -u tap-uinput")
            case .unitDisabled: ("service", "systemctl --user enable tap-uinput")
            case .brokenKeymap: ("keymap", "tap-uinput check")
            }
        }
    }

    @Test(arguments: Break.allCases)
    func eachBrokenLinkIsAProblemWithItsFix(_ broken: Break) {
        var f = Self.healthy
        broken.apply(to: &f)
        let problems = Self.problems(f)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.check == broken.expected.check)
        #expect(problems.first?.fix?.contains(broken.expected.fix) == true, "\(problems.first?.fix ?? "no fix")")
        #expect(!Doctor.healthy(Doctor.diagnose(f)))
    }

    @Test func anUntrustedTapIsAWarningNotAProblem() {
        var f = Self.healthy
        f.taps[0].trusted = false
        #expect(Doctor.healthy(Doctor.diagnose(f)))
        #expect(Doctor.diagnose(f).contains { $0.status == .warning && $0.fix == "bluetoothctl trust AA:BB:CC:DD:EE:01" })
    }

    @Test func theProbeReadsARealSystem() throws {
        let system = try PrivateBus()
        let session = try PrivateBus()
        defer { system.stop(); session.stop() }
        let dir = try makeTemporaryDirectory("doctor")
        defer { removeTree(dir) }
        mkdir(dir + "/tapuinput", 0o700)
        try writeFile(dir + "/tapuinput/keymap.toml", "[layers.base]\n\"x....\" = \"entr\"\n")
        try writeFile(dir + "/uinput", "")
        let facts = DoctorProbe.gather(environment: ["XDG_CONFIG_HOME": dir, "XDG_SEAT": "seat0"], uinputPath: dir + "/uinput",
                                       systemBus: .address(system.address), sessionBus: .address(session.address))
        #expect(facts.uinputExists && facts.uinputWritable && facts.seat == "seat0")
        #expect(facts.systemBus && !facts.bluez)            // a bus, but no bluetoothd on it
        #expect(facts.daemon == nil && facts.unit == nil)   // no daemon, no systemd user manager
        #expect(facts.keymapErrors.first?.contains("keymap.toml:2:11") == true)
        #expect(facts.focusSources.isEmpty)
        let missing = DoctorProbe.gather(environment: ["XDG_CONFIG_HOME": dir], uinputPath: dir + "/nonexistent",
                                         systemBus: .address(system.address), sessionBus: .address(session.address))
        #expect(!missing.uinputExists)
    }
}
