// tap-uinput-bench: micro-benchmarks, not tests. Run in release:
//
//     swift run -c release tap-uinput-bench [engine] [--events N]
//
// Subcommands: `engine` (default) measures ChordMap.Engine throughput on a realistic event mix.
let arguments = Array(CommandLine.arguments.dropFirst())
let subcommand = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "engine"
var events = 2_000_000
if let i = arguments.firstIndex(of: "--events"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
    events = n
}

switch subcommand {
case "engine":
    EngineBench.run(events: events)
default:
    print("unknown benchmark '\(subcommand)'; available: engine")
}
