import Glibc
import TestKit

/// What the kernel knows about a running child: CPU time (ns, from its process CPU clock),
/// memory (`/proc/PID/status`) and how often its threads went to sleep and were woken.
struct ProcessProbe {
    let pid: pid_t

    /// User + system CPU time of every thread of the process, in nanoseconds.
    var cpuNanoseconds: UInt64 {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return 0 }
        var ts = timespec()
        guard clock_gettime(clock, &ts) == 0 else { return 0 }
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Resident set size now (`VmRSS`), its peak (`VmHWM`) and the private part of it
    /// (`RssAnon`: heap and stacks; the rest is pages of shared libraries), in kB.
    var memoryKB: (rss: Int, peak: Int, anon: Int) {
        let status = Self.read("/proc/\(pid)/status")
        return (Self.field("VmRSS:", in: status) ?? 0, Self.field("VmHWM:", in: status) ?? 0,
                Self.field("RssAnon:", in: status) ?? 0)
    }

    /// Voluntary context switches summed over the threads: each one is a blocking wait
    /// (epoll_wait, poll, a blocking read) that later had to be woken, so the count over an
    /// idle period is the number of wake-ups.
    var voluntarySwitches: Int {
        threadIDs.reduce(0) { $0 + (Self.field("voluntary_ctxt_switches:", in: Self.read("/proc/\(pid)/task/\($1)/status")) ?? 0) }
    }

    var threadIDs: [String] {
        guard let dir = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(dir) }
        var ids: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.first?.isNumber == true { ids.append(name) }
        }
        return ids
    }

    static func read(_ path: String) -> String { readTextFile(path) }

    /// The first integer after `key` on its line.
    static func field(_ key: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

/// Order statistics of a sample (nearest rank).
struct Distribution {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    var isEmpty: Bool { sorted.isEmpty }
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }
    var maximum: Double { sorted.last ?? .nan }
}
