import ChordMap
import EventLoop
import KeyboardLayout
import Logging
import Testing
@testable import TapUinput

/// The driver types characters for the layout it is told about, switching at idle points.
@Suite struct EngineDriverLayoutTests {
    static let keymapSource = """
        [options]
        multi-tap-window-ms = 60

        [layers.base]
        "x...." = { tap = "y", double = "z" }
        ".x..." = "@"
        "..x.." = "ctrl+z"
        """

    let clock = VirtualClock()
    let sink = RecordingSink()
    let driver: EngineDriver

    init() throws {
        let keymap = try KeymapLoader.parse(source: Self.keymapSource, file: "test.toml")
        driver = EngineDriver(keymap: keymap, commands: CommandRunner(keymapFile: nil, enabledByKeymap: false),
                              writer: FrameWriter(sink: sink), clock: clock, logger: Logger(label: "test"))
    }

    static func report(_ name: String, origin: String = "x11") -> LayoutReport {
        LayoutReport(.names(LayoutNames(spelling: name)!), origin: origin)
    }

    func tap(_ spelling: String) {
        driver.handle(.tap(ChordTap(device: "AA:BB", chord: Chord(spelling: spelling)!)))
    }

    /// Key presses only, in the order written.
    var presses: [String] { sink.lines(for: .keyboard).filter { $0.hasSuffix(" 1") } }

    @Test func charactersFollowTheReportedLayout() {
        tap(".x...")
        tap("..x..")
        #expect(presses == ["KEY_LEFTSHIFT 1", "KEY_2 1", "KEY_LEFTCTRL 1", "KEY_Z 1"])
        driver.setLayout(Self.report("de"))
        #expect(driver.layout == Self.report("de"))
        tap(".x...")    // @ is AltGr+Q on German
        tap("..x..")    // the key that types z on German is the US Y key
        #expect(presses.suffix(4) == ["KEY_RIGHTALT 1", "KEY_Q 1", "KEY_LEFTCTRL 1", "KEY_Y 1"])
        #expect(driver.heldKeysForTest.isEmpty)
    }

    @Test func aLayoutSwitchWaitsForThePendingTap() {
        tap("x....")                                  // y, waiting for a possible double tap
        driver.setLayout(Self.report("de"))
        tap("x....")                                  // the double tap, still typed for US: KEY_Z
        tap("x....")
        clock.advance(milliseconds: 60)
        #expect(presses == ["KEY_Z 1", "KEY_Z 1"])    // then y on German: the US Z key again
    }

    @Test func aKeymapsOwnLayoutWinsOverTheDesktopButNotOverTheOption() throws {
        var keymap = try KeymapLoader.parse(source: Self.keymapSource, file: "test.toml")
        keymap.options.layout = "fr"
        driver.apply(KeymapPlan(base: LoadedKeymap(keymap: keymap, file: nil,
                                                   commands: CommandRunner(keymapFile: nil, enabledByKeymap: false))))
        #expect(driver.layout.origin == "keymap")
        driver.setLayout(Self.report("de"))
        #expect(driver.layout.origin == "keymap")
        driver.setLayout(Self.report("us(dvorak)", origin: "option"))
        #expect(driver.layout == Self.report("us(dvorak)", origin: "option"))
        // Once `--layout` is given, the desktop's later reports change nothing.
        driver.setLayout(Self.report("de"))
        #expect(driver.layout == Self.report("us(dvorak)", origin: "option"))
    }

    @Test func anUnknownLayoutKeepsTheCurrentOne() {
        driver.setLayout(Self.report("de"))
        driver.setLayout(LayoutReport(.names(LayoutNames(layout: "nosuchlayout")), origin: "x11"))
        #expect(driver.layout == Self.report("de"))
        tap("..x..")
        #expect(presses == ["KEY_LEFTCTRL 1", "KEY_Y 1"])
    }
}

extension EngineDriver {
    /// What the engine holds down (drag lock, hand states): must be nothing after typing.
    var heldKeysForTest: KeySet { status(of: "AA:BB").held }
}
