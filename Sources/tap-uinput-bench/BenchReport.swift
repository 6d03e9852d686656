/// The `daemon` benchmark's table: every figure for both of our notification paths and the
/// Python peer, our figures as ratios to the peer's, and the targets from issue 6.
enum BenchReport {
    typealias Result = DaemonBench.Result

    /// Prints the table and the target verdicts; returns the `--check` (CI) failures.
    static func print(_ results: [Result], config: DaemonBench.Config, elapsedSeconds: Double) -> [String] {
        // `--only` runs print their figures alone: no ratios, floors or verdicts.
        let full = results.count == 5
        var rows: [[String]] = [["metric"] + results.map(\.name) + (full ? ["socket/peer", "signal/peer"] : [])]
        func row(_ label: String, _ value: (Result) -> Double, digits: Int = 0) {
            let v = results.map(value)
            rows.append([label] + v.map { fmt($0, digits) } + (full ? [ratio(v[1], v[4]), ratio(v[3], v[4])] : []))
        }
        /// Our percentile minus the floor's median on the same path: conservative, since all
        /// of our tail counts as ours even where the floor has the same tail (the peer uses
        /// the signal path, so it is shown against the signal floor).
        func aboveFloor(_ label: String, _ value: (Result) -> Double, median: (Result) -> Double) {
            guard full else { return }
            let v = results.map(value), m = results.map(median)
            let above = [Double.nan, v[1] - m[0], .nan, v[3] - m[2], v[4] - m[2]]
            rows.append([label] + above.map { fmt($0, 0) } + [ratio(above[1], above[4]), ratio(above[3], above[4])])
        }
        let blank = full ? ["", ""] : []
        rows.append(["notification transport"] + results.map { $0.transport == "props" ? "signal" : "socket" } + blank)
        rows.append(["packets: typing / mouse / burst"] + results.map { r in
            ["typing", "mouse", "burst"].map { String(r.latencies[$0]?.sorted.count ?? 0) }.joined(separator: " / ")
        } + blank)
        row("ready after start, ms", \.readyMilliseconds, digits: 1)
        for w in ["typing", "mouse", "burst"] {
            for (p, label) in [(50.0, "p50"), (90, "p90"), (99, "p99"), (100, "max")] {
                row("\(w) latency \(label), µs", { $0.latencies[w]?.percentile(p) ?? .nan }, digits: 0)
            }
            if w != "burst" {
                for (p, label) in [(50.0, "p50"), (99, "p99")] {
                    aboveFloor("\(w) above the floor's p50: \(label), µs", { $0.latencies[w]?.percentile(p) ?? .nan },
                               median: { $0.latencies[w]?.percentile(50) ?? .nan })
                }
            }
        }
        row("burst: first send to last key, ms", { $0.drainMilliseconds["burst"] ?? .nan }, digits: 1)
        for w in ["typing", "mouse", "burst"] {
            row("CPU per 1000 packets, \(w), ms", { $0.cpuPerThousand[w] ?? .nan }, digits: 1)
        }
        row("idle wake-ups per second", \.idleWakeupsPerSecond, digits: 2)
        row("idle: mode refreshes seen", { Double($0.idleRefreshes) })
        row("idle CPU, ms per minute", \.idleCPUMillisecondsPerMinute, digits: 2)
        row("RSS steady (after idle), MB", { Double($0.rssKB) / 1024 }, digits: 1)
        row("RSS peak, MB", { Double($0.peakKB) / 1024 }, digits: 1)
        row("  of it private (RssAnon), MB", { Double($0.anonKB) / 1024 }, digits: 1)
        row("threads", { Double($0.threads) })
        row("outputs lost", { Double($0.lost.values.reduce(0, +)) })
        row("wrong keys", { Double($0.wrongKeys) })
        printTable(rows)
        guard full else {
            Swift.print("\nthe whole run took \(fmt(elapsedSeconds, 1)) s (a partial run: no targets, no check)")
            return config.check ? ["--check needs all five subjects"] : []
        }
        let (floorSock, sock, floorSig, sig, peer) = (results[0], results[1], results[2], results[3], results[4])

        // Targets (issue 6): reported, and fatal only for --check where noted below.
        let p99 = { (r: Result) in r.latencies["typing"]?.percentile(99) ?? .nan }
        let mp99 = { (r: Result) in r.latencies["mouse"]?.percentile(99) ?? .nan }
        // Added latency = our percentile minus the bare receiver's median on the same path in
        // the same run: the machine's own wake-up cost (about 100 µs per isolated wake-up on
        // the shared 2-core VM this was written on) is not something a bridge adds, but every
        // bit of our tail is counted as ours.
        let median = { (r: Result, w: String) in r.latencies[w]?.percentile(50) ?? .nan }
        let (aSock, aSig) = (p99(sock) - median(floorSock, "typing"), p99(sig) - median(floorSig, "typing"))
        let (amSock, amSig) = (mp99(sock) - median(floorSock, "mouse"), mp99(sig) - median(floorSig, "mouse"))
        let aPeer = p99(peer) - median(floorSig, "typing")
        // Mode refresh every 10 s; each is a timer wake-up, the write's reply and the
        // spacing timer, so anything above ~5 per refresh means something else wakes us.
        let refreshBudget = { (r: Result) in max(1.0, Double(r.idleRefreshes)) * 5 / Double(config.idleSeconds) }
        let targets: [(String, Bool)] = [
            ("typing p99 added <= 50 µs on the AcquireNotify path (\(fmt(aSock, 0)) µs above the floor; \(fmt(p99(sock), 0)) µs end to end)", aSock <= 50),
            ("typing p99 added <= 150 µs on the signal path (\(fmt(aSig, 0)) µs above the floor; \(fmt(p99(sig), 0)) µs end to end)", aSig <= 150),
            ("mouse p99 added <= 50 / 150 µs (\(fmt(amSock, 0)) / \(fmt(amSig, 0)) µs above the floor)", amSock <= 50 && amSig <= 150),
            ("typing p99 >= 10x below the peer's, end to end (\(ratio(p99(peer), p99(sock))) socket, \(ratio(p99(peer), p99(sig))) signal)",
             p99(sock) * 10 <= p99(peer) && p99(sig) * 10 <= p99(peer)),
            ("typing p99 added >= 10x below the peer's, above the floor (\(ratio(aPeer, aSock)) socket, \(ratio(aPeer, aSig)) signal)",
             aSock * 10 <= aPeer && aSig * 10 <= aPeer),
            ("idle: no wake-ups but the mode refresh (<= 5 per refresh: \(fmt(sock.idleWakeupsPerSecond, 2))/s, \(fmt(sig.idleWakeupsPerSecond, 2))/s)",
             sock.idleWakeupsPerSecond <= refreshBudget(sock) && sig.idleWakeupsPerSecond <= refreshBudget(sig)),
            ("RSS steady <= 12 MB (\(fmt(Double(max(sock.rssKB, sig.rssKB)) / 1024, 1)) MB, of it \(fmt(Double(max(sock.anonKB, sig.anonKB)) / 1024, 1)) MB private; the bare receiver in the same binary: \(fmt(Double(floorSock.rssKB) / 1024, 1)) MB)",
             max(sock.rssKB, sig.rssKB) <= 12 * 1024),
            ("ready <= 50 ms after start (\(fmt(max(sock.readyMilliseconds, sig.readyMilliseconds), 1)) ms)",
             max(sock.readyMilliseconds, sig.readyMilliseconds) <= 50),
            ("every packet typed the right key, none lost",
             [sock, sig].allSatisfy { $0.wrongKeys == 0 && $0.lost.values.allSatisfy { $0 == 0 } }),
        ]
        Swift.print("\ntargets:")
        for (text, ok) in targets { Swift.print("  [\(ok ? "PASS" : "MISS")] \(text)") }

        // --check: gross regressions only, as ratios within this run (the machine may be busy).
        // Medians, not p99: on a loaded 2-core VM one scheduling spike decides a p99 of 40 samples.
        var failures: [String] = []
        let p50 = { (r: Result, w: String) in r.latencies[w]?.percentile(50) ?? .nan }
        for w in ["typing", "mouse"] {
            if !(p50(sock, w) < p50(peer, w)) { failures.append("\(w) median on the socket path is not below the Python peer's") }
            if !(p50(sig, w) < 2 * p50(peer, w)) { failures.append("\(w) median on the signal path is over twice the Python peer's") }
        }
        for r in [sock, sig] where !((r.cpuPerThousand["typing"] ?? .nan) < 1.5 * (peer.cpuPerThousand["typing"] ?? .nan)) {
            failures.append("\(r.name): CPU per typing packet is over 1.5x the Python peer's")
        }
        for r in [sock, sig] where !(r.idleWakeupsPerSecond <= 2) {
            failures.append("\(r.name): \(fmt(r.idleWakeupsPerSecond, 2)) idle wake-ups per second (bound 2)")
        }
        for r in [sock, sig] where r.wrongKeys > 0 || r.lost.values.contains(where: { $0 != 0 }) {
            failures.append("\(r.name): outputs lost or wrong (\(r.lost), \(r.wrongKeys) wrong keys)")
        }
        Swift.print("\nthe whole run took \(fmt(elapsedSeconds, 1)) s")
        if config.check {
            Swift.print(failures.isEmpty ? "check: OK" : "check FAILED:\n" + failures.map { "  - \($0)" }.joined(separator: "\n"))
        }
        return failures
    }

    static func fmt(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "n/a" }
        if digits == 0 { return String(Int(v.rounded())) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (v * scale).rounded() / scale
        var s = String(r)
        let decimals = s.split(separator: ".").last?.count ?? 0
        if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
        return s
    }

    /// `a / b` as "0.08x"; n/a when either is missing or zero.
    static func ratio(_ a: Double, _ b: Double) -> String {
        guard a.isFinite, b.isFinite, b != 0 else { return "n/a" }
        let r = a / b
        return fmt(r, r < 0.1 ? 3 : 2) + "x"
    }

    static func printTable(_ rows: [[String]]) {
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for (i, r) in rows.enumerated() {
            let cells = r.enumerated().map { c, s in
                c == 0 ? s.padding(widths[c]) : String(repeating: " ", count: widths[c] - s.count) + s
            }
            Swift.print("| " + cells.map { $0.hasSuffix(" ") ? String($0.dropLast()) : $0 }.joined(separator: " | ") + " |")
            if i == 0 { Swift.print("|" + widths.enumerated().map { c, w in c == 0 ? String(repeating: "-", count: w + 2) : String(repeating: "-", count: w + 1) + ":" }.joined(separator: "|") + "|") }
        }
    }
}
