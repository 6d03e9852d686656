import EventLoop
import Testing
@testable import TapUinput

/// ``FocusProbe`` (`tap-uinput focus` without arguments) with stand-in sources at the
/// ``FocusSource`` seam: one answers later, one cannot start, one never answers.
@Suite struct ControlFocusProbeTests {
    final class StandIn: FocusSource {
        let name: String
        var current: FocusInfo?
        let answer: FocusInfo?
        let fails: Bool
        private(set) var stopped = false
        private var timer: EventLoop.Timer?
        private var loop: EventLoop?

        init(name: String, answer: FocusInfo?, fails: Bool = false) {
            self.name = name; self.answer = answer; self.fails = fails
        }

        func start(on loop: EventLoop, onChange: @escaping (FocusInfo) -> Void) throws {
            if fails { throw FocusSourceError(source: name, message: "cannot connect") }
            self.loop = loop
            guard let answer else { return }
            timer = loop.schedule(afterMilliseconds: 30) { [unowned self] in
                self.current = answer
                onChange(answer)
            }
        }

        func stop() {
            stopped = true
            if let timer, let loop { loop.cancel(timer) }
        }
    }

    @Test func reportsWhatEachSourceSaysAndStopsThemAll() throws {
        let sway = StandIn(name: "sway", answer: FocusInfo(appID: "foot", title: "~", source: "sway"))
        let x11 = StandIn(name: "x11", answer: nil, fails: true)
        let silent = StandIn(name: "wlroots", answer: nil)
        let reports = try FocusProbe.run(sources: [sway, x11, silent], timeoutMilliseconds: 300)
        #expect(reports == [
            FocusProbe.Report(source: "sway", focus: FocusInfo(appID: "foot", title: "~", source: "sway"), problem: nil),
            FocusProbe.Report(source: "x11", focus: nil, problem: "x11 focus: cannot connect"),
            FocusProbe.Report(source: "wlroots", focus: nil, problem: "no answer within 300 ms"),
        ])
        #expect(sway.stopped && x11.stopped && silent.stopped)
    }

    @Test func returnsAsSoonAsEverySourceHasAnswered() throws {
        let a = StandIn(name: "a", answer: FocusInfo(appID: "x", title: "", source: "a"))
        let start = MonotonicInstant.now()
        let reports = try FocusProbe.run(sources: [a], timeoutMilliseconds: 5000)
        #expect(reports.first?.focus?.appID == "x")
        #expect(MonotonicInstant.now().nanoseconds(since: start) < 2_000_000_000)
    }
}
