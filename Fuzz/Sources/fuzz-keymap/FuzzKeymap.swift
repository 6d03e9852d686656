import ChordMap
import FuzzCheck
import KeyboardLayout

/// The keymap loader (`KeymapLoader.parse(source:file:resolve:)`) on two fuzzed files, so
/// `extends` chains, cycles and errors in a parent are fuzzed too.
///
/// The input is `a.toml`, a NUL byte, then `b.toml` (bytes decoded as UTF-8 with replacement, as
/// `KeymapLoader.load(path:)` reads files). `a.toml` is loaded; `extends = "a.toml"` resolves to
/// itself (a cycle), `"missing.toml"` to nothing, any other name to `b.toml`.
///
/// Checked: loading is deterministic (a second parse gives an equal keymap or an equal error);
/// an error has at least one diagnostic and each names one of the files, a line inside it and
/// a column >= 1, with a non-empty message and a non-empty hint; a keymap that loads has `base` as layer 0
/// and runs a fixed tap script through the engine without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    let split = input.firstIndex(of: 0) ?? input.count
    let a = String(decoding: input[0..<split], as: UTF8.self)
    let b = String(decoding: input[min(split + 1, input.count)...], as: UTF8.self)
    let files = ["a.toml": a, "b.toml": b, KeymapLoader.builtinName: KeymapLoader.builtinSource]
    let resolve: KeymapLoader.Resolver = { reference, _ in
        switch reference {
        case "a.toml": (a, "a.toml")
        case "missing.toml": nil
        default: (b, "b.toml")
        }
    }
    let first = Result { () throws(KeymapError) in try KeymapLoader.parse(source: a, file: "a.toml", resolve: resolve) }
    let second = Result { () throws(KeymapError) in try KeymapLoader.parse(source: a, file: "a.toml", resolve: resolve) }
    check(first == second, "two parses of the same text differ")
    switch first {
    case .success(let keymap):
        check(keymap.layers.first?.name == "base", "layer 0 is \(keymap.layers.first?.name ?? "missing"), not base")
        // Resolution for a layout must never type a character it was not asked to.
        let (resolved, missing) = keymap.resolvingCharacters(with: characters)
        check(resolved.layers.count == keymap.layers.count, "resolution changed the layers")
        check(Set(missing.map(\.character)).isSubset(of: Set(keymap.layers.flatMap { $0.bindings.flatMap { $0.binding.tapAndMore.flatMap(\.characters) } } + keymap.gestures.values.flatMap(\.characters))),
              "reported a character the keymap does not type")
        _ = try? Simulator.run(script: script, keymap: keymap, characters: characters)
        _ = try? Simulator.run(script: script, keymap: keymap, characters: characters, text: XKBTextDecoder(xkb, composeLocale: "C"))
    case .failure(let error):
        check(!error.diagnostics.isEmpty, "an error without diagnostics")
        for d in error.diagnostics {
            guard let text = files[d.location.file] else {
                check(false, "diagnostic names an unknown file \(d.location.file)")
                return 0
            }
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            check(d.location.line >= 1 && d.location.line <= lines + 1, "line \(d.location.line) of \(lines): \(d)")
            check(d.location.column >= 1, "column \(d.location.column): \(d)")
            check(!d.message.isEmpty, "empty message at \(d.location)")
            check(d.hint.map { !$0.isEmpty } ?? false, "no hint: \(d)")
        }
        check(error.description.hasPrefix(error.diagnostics[0].location.file + ":"), "description does not start with file:line:column")
    }
    return 0
}

/// Every chord once, a double tap, pointer motion, every gesture code and hand state, and a
/// disconnect, with short and long gaps.
let script: String = {
    var lines = (1...31).map { "\($0) +40ms" }
    lines += ["1 +10ms", "1 +10ms", "1", "31 +5ms", "31 +5ms", "31", "mouse 5 -3", "mouse -300 200 unreal", "mouse 2000000 -2000000"]
    lines += (0...15).map { "gesture \($0) +20ms" } + [20, 100, 101, 102, 103, 104, 105, 106, 114].map { "gesture \($0)" }
    lines += (100...105).flatMap { ["hand \($0) +50ms", "hand \($0) +50ms"] } + ["gesture-state 1", "2 +10ms", "4", "gesture-state 0"]
    lines += ["device other", "7", "14", "release-all", "wait +3000ms"]
    return lines.joined(separator: "\n")
}()

/// French AZERTY: digits on Shift, dead keys.
nonisolated(unsafe) let xkb = try! XKBKeymap(LayoutReport(.names(LayoutNames(layout: "fr")), origin: "fuzz"))
let characters = CharacterMap(xkb, composeLocale: "C")

extension Binding {
    var tapAndMore: [Action] { [tap] + [double, triple].compactMap { $0 } }
}
