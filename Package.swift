// swift-tools-version: 6.1
import PackageDescription

// Data flows one way: TapBLE (BLE in) -> ChordMap (pure mapping) -> TapUinput (uinput out).
// The libraries do not depend on each other; the TapUinput module and the `tap-uinput`
// executable wire them together. EventLoop is the one poll loop that owns every fd.
let package = Package(
    name: "TapUinput",
    products: [
        .executable(name: "tap-uinput", targets: ["tap-uinput"]),
        .library(name: "ChordMap", targets: ["ChordMap"]),
        .library(name: "TapBLE", targets: ["TapBLE"]),
        .library(name: "KeyboardLayout", targets: ["KeyboardLayout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // C interop. System libraries come from Debian's -dev packages (scripts/deps).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .target(name: "CLinux"),
        // wlroots foreign-toplevel client for focus (libwayland-client; headers from libwayland-dev).
        .target(name: "CWlrToplevel", linkerSettings: [.linkedLibrary("wayland-client")]),

        // Keymap model, TOML loading, engine, simulator: pure but for reading keymap files
        // (Keymap/FileReader.swift). No clocks, no threads, no devices. Engine/ runs keymaps, Keymap/ loads them.
        // The built-in keymap is config/default.toml itself, compiled into the module as bytes.
        .target(name: "ChordMap", dependencies: [.product(name: "TOMLKit", package: "TOMLKit")],
                resources: [.embedInCode("Resources/default.toml")]),
        // Keyboard layouts through libxkbcommon: which keys type each character (computed when a
        // keymap or the layout changes, never per key), and keys back to text for the simulator.
        .target(name: "KeyboardLayout", dependencies: ["ChordMap", "CXKBCommon"]),
        // The single-threaded epoll loop (fds, one timer, signals).
        .target(name: "EventLoop", dependencies: ["CLinux"]),
        // Starting programs (posix_spawnp with clean signals): keymap commands, tests, benchmark.
        .target(name: "Spawn", dependencies: ["CLinux"]),
        // A small libdbus client on the loop: connections, calls, signals, exported objects.
        // Used by TapBLE (BlueZ), the control interface and the system-bus watchers.
        .target(name: "DBus", dependencies: ["CDBus", "EventLoop"]),
        // TAP protocol over BlueZ/D-Bus. Knows nothing of keys.
        .target(name: "TapBLE", dependencies: [
            "DBus", "EventLoop", .product(name: "Logging", package: "swift-log"),
        ]),
        // uinput output, daemon wiring, udev, focus, control interface.
        .target(name: "TapUinput", dependencies: [
            "ChordMap", "KeyboardLayout", "TapBLE", "DBus", "EventLoop", "Spawn", "CEvdev", "CLinux", "CXCB", "CWlrToplevel",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "tap-uinput", dependencies: [
            "TapUinput", "ChordMap", "KeyboardLayout", "TapBLE", "DBus", "EventLoop",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: releaseLinking),
        .executableTarget(name: "tap-uinput-bench", dependencies: ["ChordMap", "TapBLE", "DBus", "TapUinput", "EventLoop", "TestKit"],
                          linkerSettings: releaseLinking),

        // Real peers for the tests and the benchmark: a private dbus-daemon, subprocesses.
        .target(name: "TestKit", dependencies: ["Spawn"]),
        .testTarget(name: "ChordMapTests", dependencies: ["ChordMap", "KeyboardLayout", "TestKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "KeyboardLayoutTests", dependencies: ["KeyboardLayout", "ChordMap"]),
        .testTarget(name: "TapBLETests", dependencies: ["TapBLE", "DBus", "EventLoop", "TestKit", .product(name: "Logging", package: "swift-log")],
                    exclude: ["deps.pip"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TapUinputTests", dependencies: ["TapUinput", "ChordMap", "TapBLE", "DBus", "EventLoop", "Spawn", "CEvdev", "TestKit"]),
    ]
)

/// Release executables are linked by the toolchain's lld with packed relative relocations
/// (DT_RELR, glibc >= 2.36): a static-PIE Swift binary otherwise carries ~1.8 MB of
/// relocation records that the loader reads at every start. Measured in docs/benchmark.md.
var releaseLinking: [LinkerSetting] {
    [.unsafeFlags(["-Xclang-linker", "-fuse-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                  .when(configuration: .release))]
}
