import EventLoop
import Foundation
import Glibc
import TapBLE
import TestKit

/// `tap-uinput-bench daemon [--seconds-idle N] [--quick] [--check] [--realtime]`: the whole bridge, from
/// the moment a notification leaves bluetoothd to the moment the key is written, against the
/// vendor's Python SDK doing the same job. See docs/benchmark.md.
enum DaemonBench {
    struct Config {
        var quick = false
        var check = false
        var realtime = false
        var idleSeconds = 600
        var typingTaps = 240
        var mousePackets = 3000
        var burstTaps = 500
        /// `--only a,b`: run only the subjects whose names, written with dashes ("ours-signal",
        /// "floor-socket", "python-peer"), contain one of these words; for profiling one of them.
        var only: [String] = []

        init(arguments: [String]) {
            quick = arguments.contains("--quick")
            check = arguments.contains("--check")
            realtime = arguments.contains("--realtime")
            if quick { idleSeconds = 10; typingTaps = 40; mousePackets = 300; burstTaps = 200 }
            if let s = DaemonChild.value(of: "--seconds-idle", in: arguments), let n = Int(s), n > 0 { idleSeconds = n }
            if let s = DaemonChild.value(of: "--only", in: arguments) { only = s.split(separator: ",").map(String.init) }
        }
    }

    struct Workload {
        let name: String
        let uuid: String
        let packets: [[UInt8]]
        let intervalMicroseconds: UInt64
        let isKey: Bool
    }

    /// Two chords with no multi-tap binding in the built-in keymap, so each is typed at once:
    /// TapCode 3 = KEY_N (49), 22 = KEY_Q (16). Alternating them makes every output checkable.
    static let chords: [(code: UInt8, key: UInt16)] = [(3, 49), (22, 16)]

    static func workloads(_ c: Config) -> [Workload] {
        let taps = { (n: Int) in (0..<n).map { [chords[$0 % 2].code, 0, 0, 0] } }
        let mouse = (0..<c.mousePackets).map { i -> [UInt8] in
            let vx: Int16 = i % 2 == 0 ? 12 : -12, vy: Int16 = i % 2 == 0 ? -7 : 7
            return [0, UInt8(truncatingIfNeeded: vx), UInt8(truncatingIfNeeded: vx >> 8),
                    UInt8(truncatingIfNeeded: vy), UInt8(truncatingIfNeeded: vy >> 8), 0, 0, 0, 0, 1]
        }
        return [
            Workload(name: "typing", uuid: TapUUID.tapData, packets: taps(c.typingTaps), intervalMicroseconds: 125_000, isKey: true),
            Workload(name: "mouse", uuid: TapUUID.mouseData, packets: mouse, intervalMicroseconds: 6_667, isKey: false),
            Workload(name: "burst", uuid: TapUUID.tapData, packets: taps(c.burstTaps), intervalMicroseconds: 0, isKey: true),
        ]
    }

    /// What one subject did: latencies per workload and the process figures.
    struct Result {
        var name = ""
        var transport = ""
        var readyMilliseconds = Double.nan
        var latencies: [String: Distribution] = [:]     // µs
        var cpuPerThousand: [String: Double] = [:]       // ms CPU per 1000 packets
        var drainMilliseconds: [String: Double] = [:]    // first send -> last output
        var lost: [String: Int] = [:]
        var wrongKeys = 0
        var rssKB = 0, peakKB = 0, anonKB = 0, threads = 0
        var idleWakeupsPerSecond = Double.nan
        var idleRefreshes = 0
        var idleCPUMillisecondsPerMinute = Double.nan
    }

    static func run(arguments: [String]) -> Int32 {
        let config = Config(arguments: arguments)
        let repo = repositoryRoot()
        let fake = repo + "/Tests/TapBLETests/Fixtures/fake_bluez.py"
        let python = repo + "/.build/bench-venv/bin/python"
        if access(python, X_OK) != 0 {
            say("setting up the Python peer (Bench/setup-peer: a venv with tap-python-sdk) ...")
            if system("'\(repo)/Bench/setup-peer'") != 0 || access(python, X_OK) != 0 {
                print("error: cannot set up the Python peer; run Bench/setup-peer")
                return 1
            }
        }
        let me = selfExecutable()
        let subjects = [
            BenchSubject(name: "floor, socket", refuseAcquire: false) { [me, "floor-child", "--bus", $0, "--out", $1] },
            BenchSubject(name: "ours, socket", refuseAcquire: false) { [me, "daemon-child", "--bus", $0, "--out", $1] },
            BenchSubject(name: "floor, signal", refuseAcquire: true) { [me, "floor-child", "--bus", $0, "--out", $1, "--signal"] },
            BenchSubject(name: "ours, signal", refuseAcquire: true) { [me, "daemon-child", "--bus", $0, "--out", $1] },
            BenchSubject(name: "python peer", refuseAcquire: false) {
                [python, repo + "/Bench/python_peer.py", "--bus", $0, "--device", BenchSubject.device, "--out", $1]
            },
        ].filter { s in config.only.isEmpty || config.only.contains { s.name.replacingOccurrences(of: ", ", with: "-").replacingOccurrences(of: " ", with: "-").contains($0) } }
        if config.realtime {
            // Inherited by every process started below (buses, fakes, both bridges): the
            // same shield from the rest of the machine's load for all of them.
            var param = sched_param(sched_priority: 10)
            if sched_setscheduler(0, SCHED_FIFO, &param) != 0 {
                say("--realtime: cannot switch to SCHED_FIFO (errno \(errno)); running without")
            }
        }
        let began = MonotonicInstant.now()
        let loads = workloads(config)
        say("daemon benchmark\(config.quick ? " (quick)" : ""): typing \(config.typingTaps) taps at 8/s, " +
              "mouse \(config.mousePackets) packets at 150/s, burst \(config.burstTaps) taps back to back, idle \(config.idleSeconds) s")
        say("output: " + (access("/dev/uinput", W_OK) == 0
            ? "/dev/uinput (ours and the peer write every frame to the kernel; stamped once the write returns)"
            : "timestamping sink (no writable /dev/uinput; stamped where the frame would be written)"))
        say("scheduling: \(sched_getscheduler(0) == SCHED_FIFO ? "SCHED_FIFO 10 (--realtime)" : "normal (CFS)"); " +
            "load average at start: \(ProcessProbe.read("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " "))")
        var results: [Result] = []
        var sends: [[String: [UInt64]]] = []
        do {
            let loop = try EventLoop()
            // Started one at a time (ready is measured alone), then all stay up. Under load one
            // subject at a time, but paced workloads go in rounds, subject after subject, so a
            // slow spell of the machine is spread over all of them rather than landing on one.
            for s in subjects {
                try s.start(loop: loop, fakeScript: fake)
                var r = Result()
                r.name = s.name
                r.transport = s.transport
                r.readyMilliseconds = Double(s.readyNanoseconds ?? 0) / 1e6
                s.settle()
                say("  \(s.name): ready in \(BenchReport.fmt(r.readyMilliseconds, 1)) ms (\(s.transport))")
                results.append(r)
                sends.append([:])
            }
            for w in loads {
                let rounds = w.intervalMicroseconds == 0 ? 1 : 4
                let chunk = (w.packets.count + rounds - 1) / rounds
                var cpu = [UInt64](repeating: 0, count: subjects.count)
                for round in 0..<rounds {
                    let part = Array(w.packets[min(round * chunk, w.packets.count)..<min((round + 1) * chunk, w.packets.count)])
                    for (i, s) in subjects.enumerated() where !part.isEmpty {
                        let cpu0 = s.probe.cpuNanoseconds
                        sends[i][w.name, default: []] += try s.stream(part, uuid: w.uuid, intervalMicroseconds: w.intervalMicroseconds)
                        s.settle()
                        cpu[i] += s.probe.cpuNanoseconds - cpu0
                    }
                }
                for i in subjects.indices {
                    results[i].cpuPerThousand[w.name] = Double(cpu[i]) / 1e6 / Double(w.packets.count) * 1000
                }
                say("  \(w.name): done (\(rounds) round\(rounds == 1 ? "" : "s") per subject)")
            }
            let idleStart = subjects.map { ($0.probe.voluntarySwitches, $0.probe.cpuNanoseconds, (try? $0.modeWrites().count) ?? 0) }
            say("  idle window: \(config.idleSeconds) s, all \(subjects.count) connected, no input")
            sleep(UInt32(config.idleSeconds))
            for (i, s) in subjects.enumerated() {
                let p = s.probe
                let (switches, cpu, writes) = idleStart[i]
                results[i].idleWakeupsPerSecond = Double(p.voluntarySwitches - switches) / Double(config.idleSeconds)
                results[i].idleCPUMillisecondsPerMinute = Double(p.cpuNanoseconds - cpu) / 1e6 / Double(config.idleSeconds) * 60
                results[i].idleRefreshes = ((try? s.modeWrites().count) ?? writes) - writes
                (results[i].rssKB, results[i].peakKB, results[i].anonKB) = p.memoryKB
                results[i].threads = p.threadIDs.count
            }
        } catch {
            print("error: \(error)")
            for s in subjects where s.child != nil { _ = s.stop() }
            return 1
        }
        for (i, s) in subjects.enumerated() {
            match(s.stop(), sends: sends[i], workloads: loads, into: &results[i])
        }
        let elapsed = Double(MonotonicInstant.now().nanoseconds(since: began)) / 1e9
        let failures = BenchReport.print(results, config: config, elapsedSeconds: elapsed)
        return config.check && !failures.isEmpty ? 1 : 0
    }

    /// Pairs each workload's packets with the subject's outputs, in order.
    static func match(_ outputs: [(UInt64, Bool, UInt16)], sends: [String: [UInt64]], workloads: [Workload], into r: inout Result) {
        var keys = outputs.filter { $0.1 }[...]
        var pointer = outputs.filter { !$0.1 }[...]
        for w in workloads {
            let sent = sends[w.name] ?? []
            let got = Array((w.isKey ? keys : pointer).prefix(sent.count))
            if w.isKey { keys = keys.dropFirst(got.count) } else { pointer = pointer.dropFirst(got.count) }
            r.lost[w.name] = sent.count - got.count
            var micros: [Double] = []
            for (i, out) in got.enumerated() {
                if w.isKey && out.2 != chords[i % 2].key { r.wrongKeys += 1 }
                micros.append(Double(Int64(bitPattern: out.0 &- sent[i])) / 1000)
            }
            r.latencies[w.name] = Distribution(micros)
            if let first = sent.first, let last = got.last?.0 { r.drainMilliseconds[w.name] = Double(last - first) / 1e6 }
        }
    }

    /// Prints a progress line at once (stdout may be a pipe).
    static func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// The repository: from the current directory if it is one, else from this source file.
    static func repositoryRoot() -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: cwd + "/Bench/python_peer.py") { return cwd }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    static func selfExecutable() -> String {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { readlink("/proc/self/exe", $0, p.count - 1) }
        }
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : CommandLine.arguments[0]
    }
}
