/// Parses the string form of an action, as written in keymaps:
///
/// | spelling | action |
/// |---|---|
/// | `"a"`, `"?"`, `"A"`, `"é"`, `"€"` | type that character on the active keyboard layout |
/// | `"enter"`, `"KEY_F1"`, `"left"` | tap a physical key |
/// | `"ctrl+c"`, `"ctrl+shift+t"`, `"alt+tab"` | modifiers held around a character's key or a named key |
/// | `us(;)`, `us(ctrl+z)` | the key at that character's US-QWERTY position, whatever the layout |
/// | `"click"`, `"right-click"`, `"middle-click"`, `"btn_side"` | mouse buttons |
/// | `"double-click"`, `"drag-lock"` | two left clicks; hold the left button until the next click |
/// | `"wheel-up"`, `"wheel-down"`, `"wheel-left"`, `"wheel-right"`, `wheel(-3)`, `hwheel(2)` | wheel notches |
/// | `"toggle-scroll"` | pointer motion scrolls instead of moving |
/// | `oneshot(shift)`, `lock(shift)`, `oneshot(ctrl+alt)` | one-shot / locked modifiers |
/// | `layer(numbers)`, `toggle(numbers)`, `base`, `clear` | one-shot layer, toggled layer, back to base, back to base and reset |
/// | `text(Hello, world)` | type a string (everything between the first `(` and the last `)`) |
/// | `vibrate(100,50,100)` | haptic on/off pattern in ms |
/// | `input-mode(controller)`, `xr-state(air-mouse)` | device mode commands |
/// | `none` | nothing (unbinds an inherited chord) |
/// | `@save` | the action named `save` in `[aliases]` (a lone `@` is still the character) |
enum ActionParser {
    /// A parse failure: what is wrong, and a hint.
    struct Failure: Error, Equatable {
        var message: String
        var hint: String?
    }

    static let simpleNames: [String: Action] = [
        "none": .none, "noop": .none, "clear": .clear, "toggle-scroll": .toggleScroll,
        "base": .toggleLayer("base"),   // toggling base from anywhere lands on base
        "double-click": .doubleClick(.buttonLeft), "drag-lock": .dragLock(.buttonLeft),
        "wheel-up": .wheel(vertical: 120, horizontal: 0), "wheel-down": .wheel(vertical: -120, horizontal: 0),
        "wheel-left": .wheel(vertical: 0, horizontal: -120), "wheel-right": .wheel(vertical: 0, horizontal: 120),
    ]
    static let functionNames = ["oneshot", "lock", "layer", "toggle", "text", "vibrate", "input-mode",
                                "xr-state", "wheel", "hwheel", "us"]
    static let inputModes = Action.inputModeNames
    static let xrStates = Action.xrStateNames

    static func parse(_ spelling: String) throws(Failure) -> Action {
        let s = spelling.trimmingSpaces
        if s.isEmpty { throw Failure(message: "empty action", hint: "use \"none\" to bind nothing") }
        if let simple = simpleNames[s.lowercased()] { return simple }
        if s.hasPrefix("@"), s.count > 1 { return .alias(try aliasName(String(s.dropFirst()))) }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")"), s.count > 1, s.first != "(" {
            let name = s[..<open].lowercased().trimmingSpaces
            let argument = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
            return try function(name, argument)
        }
        return try keyCombo(s)
    }

    private static func function(_ name: String, _ arg: String) throws(Failure) -> Action {
        switch name {
        case "oneshot": return .oneShotModifiers(try modifiers(arg, in: "oneshot"))
        case "lock": return .lockModifiers(try modifiers(arg, in: "lock"))
        case "layer", "toggle":
            let layer = arg.trimmingSpaces
            guard !layer.isEmpty else { throw Failure(message: "\(name)() needs a layer name", hint: "e.g. \(name)(numbers)") }
            return name == "layer" ? .oneShotLayer(layer) : .toggleLayer(layer)
        case "text":
            return .text(try text(arg))
        case "us":
            guard case .character(let c, let mods) = try keyCombo(arg.trimmingSpaces) else {
                throw Failure(message: "us() takes a character, optionally with modifiers", hint: "e.g. us(;) or us(ctrl+z)")
            }
            return .usKey(c, modifiers: mods)
        case "vibrate":
            let parts = arg.split(separator: ",").map { $0.trimmingSpaces }
            let values = parts.compactMap { Int($0) }
            guard !parts.isEmpty, values.count == parts.count, values.allSatisfy({ (10...2550).contains($0) }) else {
                throw Failure(message: "vibrate() takes durations in ms, each 10 to 2550",
                              hint: "alternate on and off times, e.g. vibrate(100,50,100)")
            }
            guard values.count <= 18 else { throw Failure(message: "vibrate() takes at most 18 durations", hint: "the device plays up to 18 on/off times; shorten the pattern") }
            return .vibrate(values)
        case "input-mode":
            let mode = arg.trimmingSpaces.lowercased()
            guard inputModes.contains(mode) else {
                throw Failure(message: "unknown input mode \"\(arg)\"", hint: "one of " + inputModes.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            return .setInputMode(mode)
        case "xr-state":
            let st = arg.trimmingSpaces.lowercased()
            guard xrStates.contains(st) else {
                throw Failure(message: "unknown TapXR state \"\(arg)\"", hint: "one of " + xrStates.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            return .setXRState(st)
        case "wheel", "hwheel":
            guard let n = Int32(arg.trimmingSpaces), n != 0, abs(n) <= 100 else {
                throw Failure(message: "\(name)() takes a non-zero number of notches (-100 to 100)", hint: "e.g. \(name)(3)")
            }
            return name == "wheel" ? .wheel(vertical: n * 120, horizontal: 0) : .wheel(vertical: 0, horizontal: n * 120)
        default:
            throw Failure(message: "unknown action \"\(name)(...)\"", hint: Suggest.hint(name, in: functionNames) ?? "actions with arguments: " + functionNames.map { "\($0)()" }.joined(separator: ", "))
        }
    }

    /// The name after `@`: the same characters as a layer name, so it can never hold a `+`, `(`
    /// or space and be mistaken for a combination or a function.
    static func aliasName(_ name: String) throws(Failure) -> String {
        guard isAliasName(name) else {
            throw Failure(message: "\"@\(name)\" is not an alias reference: alias names use letters, digits, - and _",
                          hint: "define it under [aliases] (e.g. save = \"ctrl+s\") and write \"@save\"; a lone \"@\" types @")
        }
        return name
    }

    static func isAliasName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// `ctrl+shift` -> modifier key codes.
    private static func modifiers(_ arg: String, in function: String) throws(Failure) -> [KeyCode] {
        var result: [KeyCode] = []
        for part in arg.split(separator: "+", omittingEmptySubsequences: false).map({ $0.trimmingSpaces }) {
            guard let code = KeyCode(name: part), code.isModifier else {
                let names = ["shift", "ctrl", "alt", "meta", "super", "altgr", "rshift", "rctrl", "ralt", "rmeta"]
                throw Failure(message: "\(function)() takes modifiers, and \"\(part)\" is not one",
                              hint: Suggest.hint(part, in: names) ?? "modifiers: shift, ctrl, alt, meta, altgr")
            }
            if !result.contains(code) { result.append(code) }
        }
        return result
    }

    /// Text to type: any characters but control characters other than newline and tab.
    static func text(_ text: String) throws(Failure) -> String {
        guard !text.isEmpty else { throw Failure(message: "empty text", hint: "write what to type, e.g. text(hello)") }
        if let bad = text.first(where: { !isTypeable($0) }) {
            let code = bad.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
            throw Failure(message: "text contains the control character \(code)",
                          hint: "text can hold newlines (\\n) and tabs (\\t); bind other keys by name, e.g. \"backspace\"")
        }
        return text
    }

    /// A character a text or character action may hold: printable, newline or tab.
    static func isTypeable(_ c: Character) -> Bool {
        if c == "\n" || c == "\t" { return true }
        return !c.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// `a`, `?`, `ctrl+c`, `ctrl++`.
    private static func keyCombo(_ s: String) throws(Failure) -> Action {
        var parts = s.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        if s.hasSuffix("++") { parts = Array(parts.dropLast(2)) + ["+"] }    // "ctrl++" is Ctrl and the + key
        if s == "+" { parts = ["+"] }
        let keyName = parts.removeLast()
        var mods: [KeyCode] = []
        for m in parts {
            guard let code = KeyCode(name: m), code.isModifier else {
                if m.isEmpty { throw Failure(message: "empty key name in \"\(s)\"", hint: "combinations are written like \"ctrl+c\"") }
                throw Failure(message: "\"\(m)\" is not a modifier (in \"\(s)\")",
                              hint: Suggest.hint(m, in: ["shift", "ctrl", "alt", "meta", "super", "altgr"]) ?? "only the last part of a combination may be an ordinary key")
            }
            if !mods.contains(code) { mods.append(code) }
        }
        if keyName.count == 1, let c = keyName.first, isTypeable(c), c != "\n", c != "\t" {
            return .character(c, modifiers: mods)
        }
        if let code = KeyCode(name: keyName) { return .key(code, modifiers: mods) }
        if keyName.isEmpty { throw Failure(message: "empty key name in \"\(s)\"", hint: "combinations are written like \"ctrl+c\"") }
        let candidates = KeyNames.suggestible + Array(simpleNames.keys)
        return try { () throws(Failure) -> Action in
            throw Failure(message: "unknown key name \"\(keyName)\"",
                          hint: Suggest.hint(keyName, in: candidates) ?? "key names are the kernel's KEY_* names without the prefix, e.g. \"enter\", \"f1\", \"leftctrl\"")
        }()
    }
}
