/// What the machine looks like for ``Doctor/diagnose(_:)``: read by ``DoctorProbe``, or written
/// by hand in the tests.
public struct DoctorFacts: Sendable {
    /// One TAP as BlueZ knows it.
    public struct Tap: Sendable, Equatable {
        public var address: String
        public var name: String
        public var paired = true
        public var bonded = true
        public var trusted = true
        public var connected = true
        public var servicesResolved = true

        public init(address: String, name: String) { self.address = address; self.name = name }
    }

    public struct Adapter: Sendable, Equatable {
        public var address: String
        public var powered: Bool
        public init(address: String, powered: Bool) { self.address = address; self.powered = powered }
    }

    /// The user unit as the systemd user manager reports it.
    public struct Unit: Sendable, Equatable {
        /// `enabled`, `disabled`, `static`, ... ; "" when the unit file is not installed.
        public var fileState: String
        /// `active`, `inactive`, `failed`, ...
        public var activeState: String
        public init(fileState: String, activeState: String) { self.fileState = fileState; self.activeState = activeState }
    }

    public var uinputExists = true
    public var uinputWritable = true
    /// `XDG_SEAT` of this session, if any.
    public var seat: String?
    public var systemBus = true
    public var bluez = true
    public var adapters: [Adapter] = []
    public var taps: [Tap] = []
    /// nil when it could not be asked.
    public var unit: Unit?
    /// The running daemon's status; nil when none runs.
    public var daemon: ControlStatus?
    /// The main keymap's name, and every keymap file's diagnostics.
    public var keymapName = ""
    public var keymapErrors: [String] = []
    /// Focus sources this session's environment offers, and a desktop that only pushes.
    public var focusSources: [String] = []
    public var pushOnlyDesktop: String?

    public init() {}
}
