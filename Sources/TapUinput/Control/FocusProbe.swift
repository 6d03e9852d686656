import EventLoop

/// Asks focus sources once what has the focus now: `tap-uinput focus` without arguments,
/// to see what app id a keymap's `[match] apps` should name.
///
/// Every source is started at once on the loop, which then runs until each one has
/// reported or the time is up; then all are stopped.
public enum FocusProbe {
    /// What one source said.
    public struct Report: Equatable, Sendable {
        public var source: String
        /// The focus it reported; nil when it failed or did not answer in time.
        public var focus: FocusInfo?
        /// Why it did not report: it could not start, or said nothing in time.
        public var problem: String?
    }

    /// Probes `sources` on a loop of its own (command-line tools).
    public static func run(sources: [FocusSource], timeoutMilliseconds: Int = 1500) throws -> [Report] {
        try run(sources: sources, loop: EventLoop(), timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Probes `sources` (``FocusDetection/availableSources(environment:fileExists:)``).
    public static func run(sources: [FocusSource], loop: EventLoop, timeoutMilliseconds: Int = 1500) -> [Report] {
        var reports = sources.map { Report(source: $0.name, focus: nil, problem: nil) }
        var waiting = Set<Int>()
        for (i, source) in sources.enumerated() {
            do {
                try source.start(on: loop) { info in
                    if reports[i].focus == nil { reports[i].focus = info }
                    waiting.remove(i)
                }
                if reports[i].focus == nil { waiting.insert(i) }
            } catch {
                reports[i].problem = "\(error)"
            }
        }
        loop.run(until: { waiting.isEmpty }, timeoutMilliseconds: timeoutMilliseconds)
        for source in sources { source.stop() }
        for i in waiting { reports[i].problem = "no answer within \(timeoutMilliseconds) ms" }
        return reports
    }
}
