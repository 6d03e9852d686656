// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for the pure decoders (TapBLE) and the keymap loader and simulator (ChordMap).
// A separate package so the root package carries no sanitizer or unsafe flags; `Fuzz/run` builds
// it with `--sanitize=fuzzer --sanitize=address` into its own scratch path.
//
// Each target is one file exporting `LLVMFuzzerTestOneInput` (no main: libFuzzer supplies it).
let targets = [
    "fuzz-tap-packet", "fuzz-mouse-packet", "fuzz-air-gesture", "fuzz-raw-sensor",
    "fuzz-v2-frame", "fuzz-version", "fuzz-keymap", "fuzz-simulator",
]

let package = Package(
    name: "TapUinputFuzz",
    dependencies: [.package(path: "../.build-fuzz/TapUinput")],
    targets: [
        // Invariant checks that abort, so libFuzzer records a crash with the input.
        .target(name: "FuzzCheck"),
    ] + targets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzCheck",
                .product(name: "TapBLE", package: "tapuinput"),
                .product(name: "ChordMap", package: "tapuinput"),
                .product(name: "KeyboardLayout", package: "tapuinput"),
            ],
            // No top-level code: the entry point is libFuzzer's main.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    }
)
