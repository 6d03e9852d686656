import ChordMap
import Glibc
import Testing
@testable import TapUinput

/// Keymap files for the catalog and selector tests, written into a fresh directory.
struct KeymapFixtureDirectory {
    let path: String

    init() throws { path = try makeTemporaryDirectory("tapuinput-keymaps") }

    func write(_ name: String, _ text: String) throws { try writeFile("\(path)/\(name)", text) }
    func file(_ name: String) -> String { "\(path)/\(name)" }
    func remove() { removeTree(path) }

    /// A valid keymap on top of the built-in one, binding the thumb to `key`.
    static func keymap(name: String, apps: [String] = [], devices: [String] = [], key: String = "b",
                       extends: String = "builtin") -> String {
        var text = "extends = \"\(extends)\"\nname = \"\(name)\"\n"
        if !apps.isEmpty || !devices.isEmpty {
            text += "[match]\n"
            if !apps.isEmpty { text += "apps = [" + apps.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n" }
            if !devices.isEmpty { text += "devices = [" + devices.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n" }
        }
        return text + "[layers.base]\n\"x....\" = \"\(key)\"\n"
    }

    /// Line 6 names a key that does not exist (column 11 is its opening quote).
    static let broken = "extends = \"builtin\"\nname = \"broken\"\n[match]\napps = [\"gimp\"]\n[layers.base]\n\"x....\" = \"entr\"\n"
}

@Suite struct KeymapCatalogTests {
    @Test func loadsEveryFileAndKeepsGoingPastABrokenOne() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main"))
        try dir.write("firefox.toml", KeymapFixtureDirectory.keymap(name: "web", apps: ["firefox"]))
        try dir.write("gimp.toml", "extends = \"builtin\"\n[match]\napps = [\"gimp\"]\n[layers.base]\n\"x....\" = \"entr\"\n")
        try dir.write("notes.txt", "not a keymap")
        try dir.write(".hidden.toml", "this is not toml at all [")

        var catalog = KeymapCatalog(directory: dir.path)
        let problems = catalog.reload()

        #expect(Set(catalog.keymaps.keys) == [dir.file("keymap.toml"), dir.file("firefox.toml")])
        #expect(Array(problems.keys) == [dir.file("gimp.toml")])
        let text = catalog.diagnosticsText
        #expect(text.contains("\(dir.file("gimp.toml")):5:11: error: unknown key name \"entr\""))
        #expect(catalog.main.keymap.name == "main")
        #expect(catalog.main.file == dir.file("keymap.toml"))
        #expect(catalog.combinedError?.diagnostics.count == 1)
    }

    @Test func selectionPrecedenceIsDeviceAndAppThenAppThenDeviceThenMain() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        typealias K = KeymapFixtureDirectory
        try dir.write("keymap.toml", K.keymap(name: "main"))
        try dir.write("web.toml", K.keymap(name: "web", apps: ["firefox"]))
        try dir.write("web-left.toml", K.keymap(name: "web on the left tap", apps: ["Firefox"], devices: ["Left Tap"]))
        try dir.write("left.toml", K.keymap(name: "left tap", devices: ["AA:BB:CC:DD:EE:01"]))
        try dir.write("base.toml", K.keymap(name: "only a base for extends"))
        let catalog = KeymapCatalog.load(paths: ConfigPaths(environment: ["XDG_CONFIG_HOME": "/nonexistent"]),
                                         explicitMainFile: nil)
        #expect(catalog.keymaps.isEmpty)   // nothing in a directory that does not exist
        var c = KeymapCatalog(directory: dir.path)
        c.reload()

        let left = ["AA:BB:CC:DD:EE:01", "Left Tap"]
        let right = ["AA:BB:CC:DD:EE:02", "Right Tap"]
        #expect(c.select(app: "firefox", device: left).keymap.name == "web on the left tap")
        #expect(c.select(app: "firefox", device: right).keymap.name == "web")
        #expect(c.select(app: "firefox").keymap.name == "web")
        #expect(c.select(app: "FIREFOX").keymap.name == "web")                 // case-insensitive
        #expect(c.select(app: "foot", device: left).keymap.name == "left tap")
        #expect(c.select(app: "", device: left).keymap.name == "left tap")     // nothing focused
        #expect(c.select(app: "foot", device: right).keymap.name == "main")
        #expect(c.select(app: "foot").keymap.name == "main")
        // The X11 instance name matches too (Firefox: instance "Navigator", class "firefox").
        #expect(c.select(app: "Navigator", instance: "firefox").keymap.name == "web")
    }

    @Test func tiesGoToTheFirstPathAndAMissingMainMeansBuiltin() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("20-web.toml", KeymapFixtureDirectory.keymap(name: "second", apps: ["firefox"]))
        try dir.write("10-web.toml", KeymapFixtureDirectory.keymap(name: "first", apps: ["firefox"]))
        var c = KeymapCatalog(directory: dir.path)
        #expect(c.reload().isEmpty)
        #expect(c.select(app: "firefox").keymap.name == "first")
        #expect(c.select(app: "xterm").file == nil)
        #expect(c.select(app: "xterm").keymap == KeymapLoader.builtinDefault)
    }

    @Test func anExplicitMainFileThatIsMissingIsAnError() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        var c = KeymapCatalog(directory: dir.path, mainFile: dir.file("elsewhere.toml"))
        let problems = c.reload()
        #expect(problems[dir.file("elsewhere.toml")]?.description.contains("cannot read keymap file") == true)
        #expect(c.main.file == nil)
        #expect(c.watchDirectories == [dir.path])
        #expect(KeymapCatalog(directory: "/c/tapuinput/", mainFile: "/elsewhere/main.toml").watchDirectories
                == ["/c/tapuinput", "/elsewhere"])
        #expect(KeymapCatalog(directory: "/c/tapuinput").watchDirectories == ["/c/tapuinput"])
    }

    @Test func aBrokenFileKeepsItsLastGoodVersionAndADeletedOneIsForgotten() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("gimp.toml", KeymapFixtureDirectory.keymap(name: "gimp v1", apps: ["gimp"]))
        var c = KeymapCatalog(directory: dir.path)
        c.reload()
        #expect(c.select(app: "gimp").keymap.name == "gimp v1")

        try dir.write("gimp.toml", KeymapFixtureDirectory.broken)
        let problems = c.reload()
        #expect(problems.count == 1)
        #expect(c.isStale(dir.file("gimp.toml")))
        #expect(c.select(app: "gimp").keymap.name == "gimp v1")

        try dir.write("gimp.toml", KeymapFixtureDirectory.keymap(name: "gimp v2", apps: ["gimp"]))
        #expect(c.reload().isEmpty)
        #expect(!c.isStale(dir.file("gimp.toml")))
        #expect(c.select(app: "gimp").keymap.name == "gimp v2")

        unlink(dir.file("gimp.toml"))
        c.reload()
        #expect(c.keymaps.isEmpty)
        #expect(c.select(app: "gimp").file == nil)
    }

    @Test func extendsAnotherFileInTheDirectory() throws {
        let dir = try KeymapFixtureDirectory()
        defer { dir.remove() }
        try dir.write("keymap.toml", KeymapFixtureDirectory.keymap(name: "main", key: "z"))
        try dir.write("term.toml", "extends = \"keymap.toml\"\nname = \"term\"\n[match]\napps = [\"foot\"]\n")
        var c = KeymapCatalog(directory: dir.path)
        #expect(c.reload().isEmpty)
        let term = c.select(app: "foot").keymap
        #expect(term.name == "term")
        #expect(term.layers[0][Chord(spelling: "x....")!]?.tap == .character("z", modifiers: []))
    }
}
