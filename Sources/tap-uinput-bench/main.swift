// tap-uinput-bench: benchmarks, not tests. `make bench` builds it as the daemon is installed
// (release, static Swift runtime) and runs both; or, after that build:
//
//     .build/release/tap-uinput-bench [engine] [--events N]
//     .build/release/tap-uinput-bench daemon [--seconds-idle N] [--quick] [--check] [--realtime] [--only a,b]
//
// `engine` (default) measures ChordMap.Engine throughput on a realistic event mix.
// `daemon` measures the whole bridge against the vendor's Python SDK (docs/benchmark.md);
// `daemon-child` is the daemon process it starts, `floor-child` the bare receiver it compares with.
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
let subcommand = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "engine"
var events = 2_000_000
if let i = arguments.firstIndex(of: "--events"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
    events = n
}

switch subcommand {
case "engine":
    EngineBench.run(events: events)
case "daemon":
    exit(DaemonBench.run(arguments: arguments))
case "daemon-child":
    exit(DaemonChild.run(arguments: arguments))
case "floor-child":
    exit(FloorChild.run(arguments: arguments))
default:
    print("unknown benchmark '\(subcommand)'; available: engine, daemon")
    exit(2)
}
