# An array is a sequence of actions, each a full press and release.
--- keymap
[layers.base]
"x...." = ["ctrl+x", "ctrl+s"]
".x..." = ["a", "a"]
--- script
x....
.x...
--- output
@0ms
KEY_LEFTCTRL 1
KEY_X 1
KEY_X 0
KEY_LEFTCTRL 0
KEY_LEFTCTRL 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
@1000ms
KEY_A 1
KEY_A 0
KEY_A 1
KEY_A 0
