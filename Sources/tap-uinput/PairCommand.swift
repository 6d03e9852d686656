import ArgumentParser
import ChordMap
import DBus
import EventLoop
import TapBLE
import TapUinput

/// `tap-uinput pair`: find an unpaired TAP, pair and trust it.
struct Pair: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pair a TAP through BlueZ.",
        discussion: """
            Registers a NoInputNoOutput pairing agent, scans for TAP devices (LE discovery filtered \
            on the TAP service), pairs the first one that is not paired yet (or --address), and marks \
            it trusted. Switch the TAP on and keep it near; a TAP paired to another computer must be \
            unpaired there first. The daemon picks it up without a restart.

            --role left|right records which hand the TAP is worn on (in hands.conf next to the \
            keymaps) so two TAPs act as one keyboard; a keymap's [hands] wins over it. With \
            --address of a TAP that is already paired, only the role is recorded. A running \
            daemon is asked to reload.
            """)
    @OptionGroup var logging: LogOptions

    @Option(help: "Pair this device only (address, e.g. F0:E2:E0:00:00:01).")
    var address: String?

    @Option(help: "Seconds to look for a TAP and pair it.")
    var timeout: Int = 60

    @Option(help: "The hand this TAP is worn on: left or right (two TAPs as one keyboard).")
    var role: Hand?

    func run() throws {
        try logging.bootstrap()
        let loop = try EventLoop()
        let connection = try systemBus(loop)
        let pairer = TapPairer(connection: connection, loop: loop, address: address, logger: LogSetup.logger("ble"))
        pairer.onProgress = { step in
            switch step {
            case .poweringAdapter(let a): print("Powering on \(a)…")
            case .discovering(let a): print("Looking for TAP devices on \(a)…")
            case .found(let addr, let name): print("Found \(name) (\(addr)).")
            case .pairing(let addr): print("Pairing with \(addr)…")
            case .agentRequest: break
            }
        }
        var outcome: Result<TapPairer.Paired, DBusError>?
        pairer.start(timeoutMilliseconds: timeout * 1000) { outcome = $0 }
        loop.run(until: { outcome != nil }, timeoutMilliseconds: timeout * 1000 + 5000)
        switch outcome {
        case .success(let p):
            print(p.wasAlreadyPaired ? "\(p.name) (\(p.address)) was already paired; it is trusted now."
                                     : "Paired and trusted \(p.name) (\(p.address)).")
            if let role { try record(role, for: p, loop: loop) }
        case .failure(let e):
            printError("pairing failed: \(e.message.isEmpty ? e.name : e.message)")
            throw ExitCode.failure
        case nil:
            printError("pairing failed: no answer from bluetoothd")
            throw ExitCode.failure
        }
    }
}

extension Pair {
    /// Writes the role into `hands.conf` and asks a running daemon to reload (best effort: a
    /// daemon that is not running reads the file when it starts).
    private func record(_ role: Hand, for paired: TapPairer.Paired, loop: EventLoop) throws {
        let paths = ConfigPaths()
        var problems: [String] = []
        var assignments = HandAssignments.load(path: paths.handsFile, problems: &problems)
        for p in problems { printError("warning: \(p)") }
        assignments.assign(role, to: paired.address)
        do { try assignments.save(path: paths.handsFile) } catch {
            printError("pairing done, but the role was not recorded: \(error)")
            throw ExitCode.failure
        }
        print("\(paired.name) is the \(role) hand (\(paths.handsFile)).")
        if let client = try? ControlClient(bus: .session, loop: loop), (try? client.reload()) != nil {
            print("The running daemon has reloaded.")
        }
    }
}

extension Hand: ExpressibleByArgument {}

/// `tap-uinput forget ID`: remove a paired device and its bond.
struct Forget: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a paired TAP (and its bond) from BlueZ.")
    @OptionGroup var logging: LogOptions

    @Argument(help: "The device's address or name, as `tap-uinput devices` shows it.")
    var device: String

    func run() throws {
        try logging.bootstrap()
        let loop = try EventLoop()
        let connection = try systemBus(loop)
        let model = BlueZObjectModel(connection: connection, logger: LogSetup.logger("ble"))
        var outcome: Result<String, DBusError>?
        model.onAvailabilityChanged = { up in
            guard up else { return }
            TapPairer.forget(address: device, model: model, connection: connection) { outcome = $0 }
        }
        model.start()
        loop.run(until: { outcome != nil }, timeoutMilliseconds: 10_000)
        switch outcome {
        case .success(let name): print("Removed \(name).")
        case .failure(let e):
            printError("forget failed: \(e.message.isEmpty ? e.name : e.message)")
            throw ExitCode.failure
        case nil:
            printError("forget failed: bluetoothd did not answer (is it running?)")
            throw ExitCode.failure
        }
    }
}

/// The system bus (or `DBUS_SYSTEM_BUS_ADDRESS`), with a plain error when it is missing.
private func systemBus(_ loop: EventLoop) throws -> DBusConnection {
    do {
        return try DBusConnection(bus: .system, loop: loop)
    } catch {
        printError("cannot connect to the D-Bus system bus: \(error)")
        throw ExitCode.failure
    }
}
