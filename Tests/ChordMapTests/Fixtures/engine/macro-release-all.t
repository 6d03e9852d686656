# release-all (disconnect, suspend) drops the rest of a running macro: nothing more is typed.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = ["a", 100, "b", 100, "c"] }
".x..." = "z"
--- script
x.... +150ms
release-all +1000ms
.x...
--- output
@0ms
KEY_A 1
KEY_A 0
@100ms
KEY_B 1
KEY_B 0
@1150ms
KEY_Z 1
KEY_Z 0
