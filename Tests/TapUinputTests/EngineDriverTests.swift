import ChordMap
import EventLoop
import Logging
import Testing
@testable import TapUinput

@Suite struct EngineDriverTests {
    static let keymapSource = """
        [options]
        multi-tap-window-ms = 60

        [layers.base]
        "x...." = { tap = "a", double = "b" }
        ".x..." = "e"
        "..x.." = "vibrate(100,50)"
        "...x." = "oneshot(shift)"
        "....x" = "drag-lock"
        """

    let clock = VirtualClock()
    let sink = RecordingSink()
    let driver: EngineDriver

    init() throws {
        let keymap = try KeymapLoader.parse(source: Self.keymapSource, file: "test.toml")
        driver = EngineDriver(keymap: keymap, commands: CommandRunner(keymapFile: nil, enabledByKeymap: false),
                              writer: FrameWriter(sink: sink), clock: clock, logger: Logger(label: "test"))
    }

    func tap(_ spelling: String, device: String = "AA:BB") {
        driver.handle(.tap(ChordTap(device: device, chord: Chord(spelling: spelling)!)))
    }

    @Test func unambiguousChordIsWrittenInsideHandle() {
        tap(".x...")
        // No loop iteration ran: the frames were written synchronously, with zero added wait.
        #expect(sink.lines(for: .keyboard) == ["KEY_E 1", "SYN_REPORT 0", "KEY_E 0", "SYN_REPORT 0"])
    }

    @Test func multiTapChordWaitsForTheWindowExactly() {
        tap("x....")
        #expect(clock.armedDeadline == clock.now().adding(nanoseconds: 60_000_000))
        clock.advance(milliseconds: 59)
        #expect(sink.batches.isEmpty)
        clock.advance(milliseconds: 1)
        #expect(sink.lines(for: .keyboard) == ["KEY_A 1", "SYN_REPORT 0", "KEY_A 0", "SYN_REPORT 0"])
        #expect(clock.armedDeadline == nil)   // nothing pending: an idle daemon never wakes
    }

    @Test func secondTapInsideTheWindowIsTheDoubleAction() {
        tap("x....")
        clock.advance(milliseconds: 59)
        tap("x....")
        #expect(sink.lines(for: .keyboard) == ["KEY_B 1", "SYN_REPORT 0", "KEY_B 0", "SYN_REPORT 0"])
        // Nothing more fires later: the deadline was disarmed.
        #expect(clock.armedDeadline == nil)
        clock.advance(milliseconds: 1000)
        #expect(sink.batches.count == 2)
    }

    @Test func theDriverOnTheLoopFiresTheDeadlineOnTheLoopTimer() throws {
        let loop = try EventLoop()
        let keymap = try KeymapLoader.parse(source: Self.keymapSource, file: "test.toml")
        let onLoop = RecordingSink()
        let driver = EngineDriver(keymap: keymap, commands: CommandRunner(keymapFile: nil, enabledByKeymap: false),
                                  writer: FrameWriter(sink: onLoop), loop: loop, logger: Logger(label: "test"))
        let start = MonotonicInstant.now()
        driver.handle(.tap(ChordTap(device: "AA:BB", chord: Chord(spelling: "x....")!)))
        #expect(onLoop.batches.isEmpty)
        #expect(loop.run(until: { !onLoop.batches.isEmpty }, timeoutMilliseconds: 2000))
        #expect(MonotonicInstant.now().nanoseconds(since: start) >= 60_000_000)
    }

    @Test func deviceCommandsGoToTheTappingDevice() {
        var commands: [EngineDriver.DeviceCommand] = []
        driver.onDeviceCommand = { commands.append($0) }
        tap("..x..", device: "11:22")
        #expect(commands == [.vibrate(device: "11:22", durationsMs: [100, 50])])
    }

    @Test func releaseAllLetsGoOfAHeldButton() {
        tap("....x")
        #expect(sink.lines(for: .pointer) == ["BTN_LEFT 1", "SYN_REPORT 0"])
        driver.releaseAll(reason: "test")
        #expect(sink.lines(for: .pointer) == ["BTN_LEFT 1", "SYN_REPORT 0", "BTN_LEFT 0", "SYN_REPORT 0"])
    }

    @Test func keymapSwitchWaitsForIdle() throws {
        let other = try KeymapLoader.parse(source: "[layers.base]\n\".x...\" = \"z\"\n", file: "other.toml")
        tap("x....")                                   // pending double tap: not idle
        driver.apply(KeymapPlan(base: LoadedKeymap(keymap: other, file: nil,
                                                   commands: CommandRunner(keymapFile: nil, enabledByKeymap: false))))
        tap("x....")                                   // completes the double in the OLD keymap
        tap(".x...")                                   // now the new keymap
        #expect(sink.lines(for: .keyboard) == [
            "KEY_B 1", "SYN_REPORT 0", "KEY_B 0", "SYN_REPORT 0",
            "KEY_Z 1", "SYN_REPORT 0", "KEY_Z 0", "SYN_REPORT 0",
        ])
    }

    @Test func builtinKeymapIsUsedWithoutAConfigFile() {
        let selector = KeymapSelector(catalog: .load(paths: ConfigPaths(environment: ["HOME": "/nonexistent"])))
        #expect(selector.mainKeymapError == nil)
        #expect(selector.active.file == nil)
        #expect(selector.active.keymap == KeymapLoader.builtinDefault)
        #expect(selector.active.commands.refusal() == .disabledByKeymap)
    }

    @Test func missingExplicitKeymapIsAPositionedError() {
        let selector = KeymapSelector(catalog: .load(paths: ConfigPaths(environment: [:]),
                                                     explicitMainFile: "/nonexistent/keymap.toml"))
        #expect(selector.mainKeymapError.map { String(describing: $0).contains("/nonexistent/keymap.toml:1:1") } == true)
    }
}
