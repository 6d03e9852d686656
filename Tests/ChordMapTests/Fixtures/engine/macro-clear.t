# clear resets the device, a running macro included.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = ["a", 100, "b"] }
".x..." = "clear"
--- script
x.... +50ms
.x...
--- output
@0ms
KEY_A 1
KEY_A 0
