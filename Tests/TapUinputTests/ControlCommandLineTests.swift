import ChordMap
import EventLoop
import Glibc
import Spawn
import TapBLE
import TestKit
import Testing
@testable import TapUinput

/// The built `tap-uinput` binary's `status`, `reload`, `focus` and `monitor` against a
/// service on a private bus (as the session bus). The loop keeps serving while the tool runs.
@Suite struct ControlCommandLineTests {
    /// One run of the tool; its stdout and stderr (merged) are read on the loop.
    final class ToolRun {
        let pid: pid_t
        private(set) var output = ""
        private(set) var finished = false
        private let fd: Int32
        private var watch: EventLoop.Watch?

        init(_ arguments: [String], busAddress: String, loop: EventLoop) throws {
            let exe = try Self.toolPath()
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw TestFailure("pipe") }
            var options = Spawn.Options(stdout: .descriptor(fds[1]), stderr: .descriptor(fds[1]),
                                        environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress, "PATH": "/usr/bin:/bin",
                                                      "HOME": "/nonexistent"])
            options.close = [fds[0]]
            defer { close(fds[1]) }   // the child's end: closed here once it has its copy
            do {
                pid = try Spawn.start([exe] + arguments, options)
            } catch {
                close(fds[0])
                throw TestFailure("\(error)")
            }
            fd = fds[0]
            watch = loop.watch(fd: fd, events: .readable) { [unowned self, loop] _ in
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(self.fd, &buffer, buffer.count)
                if n > 0 { self.output += String(decoding: buffer[0..<n], as: UTF8.self); return }
                self.finished = true
                if let w = self.watch { loop.remove(w) }
                self.watch = nil
            }
        }

        /// Runs `loop` until the tool closes its output; returns its exit status.
        func finish(_ loop: EventLoop, timeoutMilliseconds: Int = 20_000) -> Int32 {
            loop.run(until: { self.finished }, timeoutMilliseconds: timeoutMilliseconds)
            if !finished { kill(pid, SIGKILL) }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(fd)
            return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }

        /// `tap-uinput` beside the test bundle (`swift build` builds it with the tests).
        static func toolPath() throws -> String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard n > 0 else { throw TestFailure("readlink /proc/self/exe") }
            let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var dir = exe
            while let slash = dir.lastIndex(of: "/"), dir.contains(".xctest") { dir = String(dir[..<slash]) }
            let tool = "\(dir)/tap-uinput"
            guard access(tool, X_OK) == 0 else { throw TestFailure("\(tool) is not built: run swift build first") }
            return tool
        }
    }

    @Test func statusPrintsTextAndJSON() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        h.daemon.status.devices = [ControlStatus.Device(id: "AA:BB:CC:DD:EE:01", name: "Tap_1", connected: true, battery: 55)]
        let text = try ToolRun(["status"], busAddress: h.bus.address, loop: h.loop)
        #expect(text.finish(h.loop) == 0)
        #expect(text.output.contains("keymap:  main (\(h.keymaps.file("keymap.toml")); selected by focus)"))
        #expect(text.output.contains("AA:BB:CC:DD:EE:01  Tap_1  connected  battery 55%"))

        let json = try ToolRun(["status", "--json"], busAddress: h.bus.address, loop: h.loop)
        #expect(json.finish(h.loop) == 0)
        #expect(json.output.contains("\"keymap\" : \"main\""))
        #expect(json.output.contains("\"battery\" : 55"))
    }

    @Test func checkTypesForTheLayoutTheRunningDaemonFollows() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        try h.keymaps.write("cyrillic.toml", "[layers.base]\n\"x....\" = \"ж\"\n")
        h.daemon.status.layout = "de"
        h.daemon.status.layoutOrigin = "x11"
        let german = try ToolRun(["check", h.keymaps.file("cyrillic.toml")], busAddress: h.bus.address, loop: h.loop)
        #expect(german.finish(h.loop) == 0)
        #expect(german.output.contains("1 untypeable on de"))

        h.daemon.status.layout = "us,ru"
        h.daemon.status.layoutGroup = 1
        let russian = try ToolRun(["check", h.keymaps.file("cyrillic.toml")], busAddress: h.bus.address, loop: h.loop)
        #expect(russian.finish(h.loop) == 0)
        #expect(!russian.output.contains("untypeable"))
        // --layout still wins.
        let forced = try ToolRun(["check", "--layout", "fr", h.keymaps.file("cyrillic.toml")], busAddress: h.bus.address, loop: h.loop)
        #expect(forced.finish(h.loop) == 0)
        #expect(forced.output.contains("1 untypeable on fr"))
    }

    @Test func reloadExitsNonZeroWithTheDiagnostics() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        try h.keymaps.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main v2"))
        let ok = try ToolRun(["reload"], busAddress: h.bus.address, loop: h.loop)
        #expect(ok.finish(h.loop) == 0)
        #expect(ok.output.contains("reloaded: keymap main v2"))

        try h.keymaps.write("keymap.toml", KeymapFixtureDirectory.broken)
        let bad = try ToolRun(["reload"], busAddress: h.bus.address, loop: h.loop)
        #expect(bad.finish(h.loop) == 1)
        #expect(bad.output.contains("\(h.keymaps.file("keymap.toml")):6:11: error: unknown key name \"entr\""))
        #expect(bad.output.contains("hint:"))
    }

    @Test func focusSetsTheFocusOnTheDaemon() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let run = try ToolRun(["focus", "firefox", "Mozilla Firefox"], busAddress: h.bus.address, loop: h.loop)
        #expect(run.finish(h.loop) == 0)
        #expect(h.daemon.selector.focus == FocusInfo(appID: "firefox", title: "Mozilla Firefox", source: "dbus"))
        #expect(h.daemon.selector.active.keymap.name == "web")
    }

    @Test func monitorShowsTapsAndEventsUntilInterrupted() throws {
        let h = try ControlHarness()
        defer { h.stop() }
        let run = try ToolRun(["monitor"], busAddress: h.bus.address, loop: h.loop)
        #expect(h.loop.run(until: { h.service.wantsTaps }, timeoutMilliseconds: 20_000))
        h.service.tap(device: "AA:01", chord: Chord(spelling: "x.x..")!, action: "ctrl+t", app: "firefox", layer: "web")
        h.service.layerChanged(device: "AA:01", layer: "numbers")
        #expect(h.loop.run(until: { run.output.contains("* layer") }, timeoutMilliseconds: 5000))
        kill(run.pid, SIGINT)
        #expect(run.finish(h.loop) == 0)
        #expect(run.output.contains("watching the TapUinput daemon"))
        #expect(run.output.contains("x.x..  ctrl+t            firefox [web]  AA:01"))
        #expect(run.output.contains("* layer         numbers on AA:01"))
    }

    @Test func withoutADaemonTheToolsSaySoAndFail() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        for command in [["status"], ["reload"], ["focus", "foot"]] {
            let run = try ToolRun(command, busAddress: bus.address, loop: loop)
            #expect(run.finish(loop) == 1)
            #expect(run.output.contains("no TapUinput daemon on the session bus: start it with `systemctl --user start tap-uinput`"))
        }
    }
}
