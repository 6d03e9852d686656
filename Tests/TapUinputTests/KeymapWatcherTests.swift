import ChordMap
import EventLoop
import Glibc
import Testing
@testable import TapUinput

/// ``KeymapWatcher`` on real files in a temporary directory, with real inotify.
@Suite struct KeymapWatcherTests {
    typealias K = KeymapFixtureDirectory

    final class Changes { var batches: [[String]] = [] }

    private func watch(_ directory: String, loop: EventLoop, settle: Int = 50) throws -> (KeymapWatcher, Changes) {
        let changes = Changes()
        let watcher = try KeymapWatcher(directories: [directory], loop: loop, settleMilliseconds: settle) {
            changes.batches.append($0)
        }
        return (watcher, changes)
    }

    @Test func writeInPlaceRenameOverAndDeleteAreEachOneChange() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let (watcher, changes) = try watch(dir.path, loop: loop)
        defer { watcher.stop() }

        try dir.write("keymap.toml", K.keymap(name: "v1"))
        #expect(loop.run(until: { changes.batches.count == 1 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [dir.file("keymap.toml")])

        // An editor's save: write a hidden temporary file, rename it over the keymap.
        try dir.write(".keymap.toml.tmp", K.keymap(name: "v2"))
        #expect(rename(dir.file(".keymap.toml.tmp"), dir.file("keymap.toml")) == 0)
        #expect(loop.run(until: { changes.batches.count == 2 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [dir.file("keymap.toml")])

        #expect(unlink(dir.file("keymap.toml")) == 0)
        #expect(loop.run(until: { changes.batches.count == 3 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [dir.file("keymap.toml")])

        // Nothing else trickles in afterwards.
        loop.run(until: { false }, timeoutMilliseconds: 200)
        #expect(changes.batches.count == 3)
    }

    @Test func otherFilesAreIgnored() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let (watcher, changes) = try watch(dir.path, loop: loop)
        defer { watcher.stop() }
        try dir.write("notes.txt", "x")
        try dir.write("keymap.toml~", "x")
        try dir.write(".keymap.toml.swp", "x")
        try dir.write("4913", "")
        try dir.write("hands.conf", "x")   // only when asked for (otherNames)
        loop.run(until: { false }, timeoutMilliseconds: 300)
        #expect(changes.batches.isEmpty)
    }

    @Test func anOtherNameAskedForCountsLikeAKeymap() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let changes = Changes()
        let watcher = try KeymapWatcher(directories: [dir.path], loop: loop, settleMilliseconds: 50,
                                        otherNames: ["hands.conf"]) { changes.batches.append($0) }
        defer { watcher.stop() }
        try dir.write("hands.conf", "AA:00:00:00:00:01 left\n")
        #expect(loop.run(until: { changes.batches.count == 1 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [dir.file("hands.conf")])
        try dir.write("other.conf", "x")
        loop.run(until: { false }, timeoutMilliseconds: 200)
        #expect(changes.batches.count == 1)
    }

    @Test func aBurstOfWritesIsCoalescedIntoOneNotification() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        let loop = try EventLoop()
        let (watcher, changes) = try watch(dir.path, loop: loop, settle: 100)
        defer { watcher.stop() }
        for i in 0..<5 { try dir.write("a.toml", "# \(i)\n") }
        try dir.write("b.toml", "# b\n")
        #expect(loop.run(until: { !changes.batches.isEmpty }, timeoutMilliseconds: 3000))
        loop.run(until: { false }, timeoutMilliseconds: 250)
        #expect(changes.batches == [[dir.file("a.toml"), dir.file("b.toml")]])
    }

    @Test func aDirectoryThatAppearsLaterIsPickedUp() throws {
        let parent = try KeymapFixtureDirectory()
        defer { parent.remove() }
        let configDir = parent.file("tapuinput")
        let loop = try EventLoop()
        let (watcher, changes) = try watch(configDir, loop: loop)
        defer { watcher.stop() }

        #expect(mkdir(configDir, 0o755) == 0)
        #expect(loop.run(until: { changes.batches.count == 1 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [])   // unknown what changed: reload everything

        try writeFile("\(configDir)/keymap.toml", K.keymap(name: "new"))
        #expect(loop.run(until: { changes.batches.count == 2 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == ["\(configDir)/keymap.toml"])

        // Removed and made again: still watched.
        removeTree(configDir)
        #expect(loop.run(until: { changes.batches.count == 3 }, timeoutMilliseconds: 3000))
        #expect(mkdir(configDir, 0o755) == 0)
        #expect(loop.run(until: { changes.batches.count == 4 }, timeoutMilliseconds: 3000))
        try writeFile("\(configDir)/web.toml", K.keymap(name: "web"))
        #expect(loop.run(until: { changes.batches.last == ["\(configDir)/web.toml"] }, timeoutMilliseconds: 3000))
    }

    /// `--keymap ~/.config/main.toml` with a missing `~/.config/tapuinput`: one directory is
    /// the other's parent, so one inotify watch serves both; neither role may lose the other's events.
    @Test func aWatchedDirectoryThatIsAlsoTheParentOfAMissingOneServesBoth() throws {
        let parent = try KeymapFixtureDirectory()
        defer { parent.remove() }
        let child = parent.file("tapuinput")
        let loop = try EventLoop()
        let changes = Changes()
        let watcher = try KeymapWatcher(directories: [parent.path, child], loop: loop, settleMilliseconds: 50) {
            changes.batches.append($0)
        }
        defer { watcher.stop() }

        try parent.write("main.toml", K.keymap(name: "main"))
        #expect(loop.run(until: { changes.batches.count == 1 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [parent.file("main.toml")])

        #expect(mkdir(child, 0o755) == 0)
        #expect(loop.run(until: { changes.batches.count == 2 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [])

        try writeFile("\(child)/web.toml", K.keymap(name: "web"))
        #expect(loop.run(until: { changes.batches.count == 3 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == ["\(child)/web.toml"])

        try parent.write("main.toml", K.keymap(name: "main v2"))
        #expect(loop.run(until: { changes.batches.count == 4 }, timeoutMilliseconds: 3000))
        #expect(changes.batches.last == [parent.file("main.toml")])
    }

    /// The whole reload path: watcher -> selector; a broken save is reported with its
    /// position and the running keymap stays; the fix is applied.
    @Test func watcherDrivenReloadKeepsTheRunningKeymapOnErrors() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", K.keymap(name: "main v1"))
        var catalog = KeymapCatalog(directory: dir.path)
        catalog.reload()
        let selector = KeymapSelector(catalog: catalog)
        var names: [String] = []
        var errors: [String] = []
        selector.onChange = { names.append($0.base.keymap.name) }
        selector.onError = { errors.append($0.description) }
        let loop = try EventLoop()
        let watcher = try KeymapWatcher(directories: [dir.path], loop: loop, settleMilliseconds: 50) { _ in
            try? selector.reload()
        }
        defer { watcher.stop() }

        try dir.write("keymap.toml", K.broken)
        #expect(loop.run(until: { errors.count == 1 }, timeoutMilliseconds: 3000))
        #expect(errors.first?.contains("\(dir.file("keymap.toml")):6:11: error: unknown key name \"entr\"") == true)
        #expect(names.isEmpty)
        #expect(selector.active.keymap.name == "main v1")

        try dir.write(".keymap.toml.new", K.keymap(name: "main v2"))
        #expect(rename(dir.file(".keymap.toml.new"), dir.file("keymap.toml")) == 0)
        #expect(loop.run(until: { names == ["main v2"] }, timeoutMilliseconds: 3000))
        #expect(errors.count == 1)
    }
}
