/// The built-in keymap: `config/default.toml`, embedded byte for byte (a test checks it).
///
/// Generated; after editing config/default.toml, regenerate from the package root with:
///
///     { sed -n 1,8p Sources/ChordMap/DefaultKeymap.swift; cat config/default.toml; printf '\n"""#\n}\n'; } > /tmp/d.swift && mv /tmp/d.swift Sources/ChordMap/DefaultKeymap.swift
enum DefaultKeymap {
    /// The TOML text of the built-in TapCode keymap (a raw string, so no escaping is needed).
    static let source = #"""
# TapUinput built-in keymap: the default English TapCode layout (see docs/keymaps.md).
#
# Chords are written thumb first, one mark per finger: "x.x.." is thumb + middle (tapcode 5).
# Single taps follow the TapCode alphabet; double and triple taps (two or three taps of the
# same chord, each within multi-tap-window-ms of the previous one) give punctuation, as in the
# community transcriptions of the TapGenius layout. A chord without double/triple actions is
# typed the moment it arrives; one with them waits for the next tap or the end of the window.
# So to type a doubled letter ("ll"), leave more than the window between the two taps.
#
# Shift (thumb+index+middle) is one-shot: it shifts the next key. Tapped twice quickly it locks
# Shift on (like the firmware's "shift locked" state); a single Shift tap unlocks it.
# Switch (middle+ring+pinky) toggles the numbers layer; Switch again returns.
#
# This file is embedded in the binary as the built-in keymap. Start your own with
#   extends = "builtin"
# and rebind only the chords you want to change.

name = "TapCode (English)"

[options]
multi-tap-window-ms = 300

[mouse]
sensitivity = 1.0
acceleration = 0.5
threshold = 10
max-gain = 3.0
scroll-sensitivity = 2.0

[layers.base]
# letters
"x...." = { tap = "a", double = "v", triple = "@" }        #  1 T
".x..." = { tap = "e", double = "!", triple = "=" }        #  2 I
"..x.." = { tap = "i", double = "j" }                      #  4 M
"...x." = { tap = "o", double = "q" }                      #  8 R
"....x" = { tap = "u", double = "w", triple = "_" }        # 16 P
"xx..." = "n"                                              #  3 T+I
".xx.." = { tap = "t", double = '"', triple = "#" }        #  6 I+M
"..xx." = { tap = "l", double = "/", triple = "+" }        # 12 M+R
"...xx" = { tap = "s", double = '\', triple = "|" }        # 24 R+P; triple: our addition
"x.x.." = { tap = "d", double = "&", triple = "$" }        #  5 T+M
".x.x." = { tap = "m", double = "," }                      # 10 I+R
"..x.x" = { tap = "z", double = "{", triple = "}" }        # 20 M+P; triple: our addition
"x..x." = { tap = "k", double = "?", triple = "*" }        #  9 T+R
".x..x" = { tap = "b", double = "[", triple = "]" }        # 18 I+P
"x...x" = { tap = "y", double = "z" }                      # 17 T+P
"x.x.x" = "w"                                              # 21 T+M+P
".xxxx" = { tap = "h", double = "-" }                      # 30 I+M+R+P; double: ESP32 reading
"x.xxx" = { tap = "c", double = ":", triple = ";" }        # 29 T+M+R+P
"xx.xx" = { tap = "v", double = "^", triple = "~" }        # 27 T+I+R+P; triple: our addition
"xxx.x" = "j"                                              # 23 T+I+M+P
"xxxx." = { tap = "r", double = "'", triple = "%" }        # 15 T+I+M+R
"x.xx." = { tap = "g", double = ">", triple = "<" }        # 13 T+M+R
".x.xx" = { tap = "x", double = "`" }                      # 26 I+R+P; double: our choice (ScribbleJ has ".", already on Space)
"xx.x." = "f"                                              # 11 T+I+R
".xx.x" = "q"                                              # 22 I+M+P
"xx..x" = { tap = "p", double = "(", triple = ")" }        # 19 T+I+P
# editing and control
"xxxxx" = { tap = "space", double = "." }                  # 31 all fingers: Space; double: full stop
".xxx." = "backspace"                                      # 14 I+M+R
"x..xx" = "enter"                                          # 25 T+R+P
"xxx.." = { tap = "oneshot(shift)", double = "lock(shift)" } #  7 T+I+M: Shift
"..xxx" = "toggle(numbers)"                                # 28 M+R+P: Switch

# Switch layer: digits, arrows and a few controls. Chords not listed here (Shift, Enter, the
# letters) fall through to the base layer.
[layers.numbers]
"x...." = "1"                                              #  1 T
".x..." = "2"                                              #  2 I
"..x.." = "3"                                              #  4 M
"...x." = "4"                                              #  8 R
"....x" = "5"                                              # 16 P
"x...x" = "6"                                              # 17 T+P
".x..x" = "7"                                              # 18 I+P
"..x.x" = "8"                                              # 20 M+P
"...xx" = "9"                                              # 24 R+P
".xxxx" = "0"                                              # 30 I+M+R+P
"xx..." = "left"                                           #  3 T+I
".xx.." = "up"                                             #  6 I+M
"..xx." = "right"                                          # 12 M+R
"x..x." = "down"                                           #  9 T+R
"x.x.." = "."                                              #  5 T+M
"xxxx." = "tab"                                            # 15 T+I+M+R
"xx..x" = "esc"                                            # 19 T+I+P
".xxx." = "backspace"                                      # 14 I+M+R
"xxxxx" = "space"                                          # 31 T+I+M+R+P
"..xxx" = "toggle(numbers)"                                # 28 M+R+P

"""#
}
