import Glibc
import ChordMap
import Testing
@testable import TapUinput

@Suite struct CommandRunnerTests {
    /// A fresh keymap file with `mode`, owned by this user.
    func makeKeymap(mode: mode_t) -> String {
        var template = Array("/tmp/tapuinput-keymap-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        close(fd)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, mode)
        return path
    }

    @Test func disabledUnlessTheKeymapEnablesCommands() {
        let path = makeKeymap(mode: 0o600)
        defer { unlink(path) }
        #expect(CommandRunner(keymapFile: path, enabledByKeymap: false).refusal() == .disabledByKeymap)
        #expect(CommandRunner(keymapFile: path, enabledByKeymap: true).refusal() == nil)
    }

    @Test func refusedForTheBuiltInKeymap() {
        #expect(CommandRunner(keymapFile: nil, enabledByKeymap: true).refusal() == .noKeymapFile)
    }

    @Test(arguments: [0o620, 0o602, 0o666] as [mode_t])
    func refusedWhenOthersCanWriteTheKeymap(mode: mode_t) {
        let path = makeKeymap(mode: mode)
        defer { unlink(path) }
        #expect(CommandRunner(keymapFile: path, enabledByKeymap: true).refusal() == .keymapWritableByOthers(path: path))
    }

    @Test func refusedWhenAnotherUserOwnsTheKeymap() throws {
        let path = makeKeymap(mode: 0o644)
        defer { unlink(path) }
        // Only root can give a file away (CI runs as root).
        try #require(getuid() == 0, "needs root to chown the fixture")
        let other: uid_t = 65534
        #expect(chown(path, other, gid_t(65534)) == 0)
        #expect(CommandRunner(keymapFile: path, enabledByKeymap: true).refusal()
                == .keymapNotOwnedByUser(path: path, owner: other))
    }

    @Test func everyFileInTheExtendsChainIsChecked() throws {
        let parent = makeKeymap(mode: 0o600)
        let child = makeKeymap(mode: 0o600)
        defer { unlink(parent); unlink(child) }
        let write = { (path: String, text: String) in
            let f = fopen(path, "w"); fputs(text, f); fclose(f)
        }
        write(parent, "[options]\nallow-commands = true\n[layers.base]\n\"x....\" = { run = [\"true\"] }\n")
        write(child, "extends = \"\(parent)\"\n")
        let keymap = try KeymapLoader.load(path: child)
        #expect(keymap.files == [child, parent])
        #expect(CommandRunner(keymap: keymap, file: child).refusal() == nil)
        // Someone else can now change what the inherited keymap runs: refused.
        chmod(parent, 0o666)
        #expect(CommandRunner(keymap: keymap, file: child).refusal() == .keymapWritableByOthers(path: parent))
    }

    @Test func underSystemdCommandsBecomeTransientUnits() {
        let argv = ["notify-send", "hi; rm -rf ~"]
        #expect(CommandRunner.launch(argv, environment: [:], systemdRun: "/usr/bin/systemd-run") == argv)
        #expect(CommandRunner.launch(argv, environment: ["INVOCATION_ID": "abc"], systemdRun: nil) == argv)
        #expect(CommandRunner.launch(argv, environment: ["INVOCATION_ID": "abc"], systemdRun: "/usr/bin/systemd-run")
                == ["/usr/bin/systemd-run", "--user", "--collect", "--quiet", "--", "notify-send", "hi; rm -rf ~"])
    }

    @Test func runsArgvWithoutAShell() throws {
        let path = makeKeymap(mode: 0o600)
        defer { unlink(path) }
        let marker = "/tmp/tapuinput-run-\(getpid()) ; echo injected"
        defer { unlink(marker) }
        let runner = CommandRunner(keymapFile: path, enabledByKeymap: true)
        let pid = try runner.run(["touch", marker])
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        // The whole string, `;` included, was one argument: the file exists under that name.
        #expect(access(marker, F_OK) == 0)
    }

    @Test func missingProgramIsReportedNotCrashed() {
        let path = makeKeymap(mode: 0o600)
        defer { unlink(path) }
        #expect(throws: CommandRunner.Refusal.self) {
            try CommandRunner(keymapFile: path, enabledByKeymap: true).run(["/nonexistent/program"])
        }
    }

    @Test func configPathsFollowXDG() {
        #expect(ConfigPaths(environment: ["XDG_CONFIG_HOME": "/x/cfg/", "HOME": "/home/u"]).keymapFile
                == "/x/cfg/tapuinput/keymap.toml")
        #expect(ConfigPaths(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]).directory
                == "/home/u/.config/tapuinput")
        #expect(ConfigPaths(environment: ["HOME": "/home/u"]).directory == "/home/u/.config/tapuinput")
    }
}
