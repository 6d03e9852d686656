# A device that disconnects takes the rest of its macro with it; another device's macro runs on.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = ["a", 100, "b", 100, "c"] }
".x..." = { macro = ["x", 100, "y", 100, "z"] }
--- script
device one
x.... +50ms
device two
.x... +100ms
device one
disconnect
--- output
@0ms
KEY_A 1
KEY_A 0
@50ms
KEY_X 1
KEY_X 0
@100ms
KEY_B 1
KEY_B 0
@150ms
KEY_Y 1
KEY_Y 0
@250ms
KEY_Z 1
KEY_Z 0
