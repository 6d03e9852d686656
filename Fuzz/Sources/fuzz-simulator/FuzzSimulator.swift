import ChordMap
import FuzzCheck
import KeyboardLayout

/// The simulator's script language (`Simulator.run`) on the built-in keymap, events and text mode.
///
/// A `release-all` line is appended (after a newline, so it stands alone). Checked: a script
/// error names a line of the script and has a message; a script that runs prints timestamps that
/// never go backwards, and after the final release-all every key pressed has been released (the
/// desired-set output makes stuck keys impossible).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let script = String(decoding: bytes(data, size), as: UTF8.self) + "\nrelease-all"
    let lineCount = script.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    let output: String
    do {
        output = try Simulator.run(script: script, keymap: keymap, characters: characters)
    } catch {
        check(error.line >= 1 && error.line <= lineCount, "error on line \(error.line) of \(lineCount)")
        check(!error.message.isEmpty, "empty error message")
        return 0
    }
    var last: UInt64 = 0
    var down: [Substring: Int] = [:]
    for line in output.split(separator: "\n") {
        if line.hasPrefix("@") {
            let ms = UInt64(line.dropFirst().dropLast(2))
            check(ms != nil && line.hasSuffix("ms"), "bad timestamp line \(line)")
            check(ms! >= last, "time went back from \(last) to \(ms!)")
            last = ms!
        } else if line.hasPrefix("KEY_") || line.hasPrefix("BTN_") {
            let parts = line.split(separator: " ")
            check(parts.count == 2 && (parts[1] == "1" || parts[1] == "0"), "bad key line \(line)")
            down[parts[0], default: 0] += parts[1] == "1" ? 1 : -1
            check((0...1).contains(down[parts[0]]!), "\(parts[0]) pressed twice or released unpressed")
        }
    }
    check(down.values.allSatisfy { $0 == 0 }, "keys still down after release-all: \(down.filter { $0.value != 0 }.keys)")
    // Text mode must not trap on the same script.
    _ = try? Simulator.run(script: script, keymap: keymap, characters: characters, text: XKBTextDecoder(xkb, composeLocale: "C"))
    return 0
}

let keymap = KeymapLoader.builtinDefault
/// German: AltGr and dead keys in the output, and letters that move.
nonisolated(unsafe) let xkb = try! XKBKeymap(LayoutReport(.names(LayoutNames(layout: "de")), origin: "fuzz"))
let characters = CharacterMap(xkb, composeLocale: "C")
