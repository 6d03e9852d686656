# A macro: the steps before the first delay run in the same step as the tap; the rest at engine
# deadlines, each delay counted from the step before it. Every step is a whole press and release.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = ["ctrl+c", "a", 50, "alt+tab", 120, "ctrl+v"] }
--- script
x....
--- output
@0ms
KEY_LEFTCTRL 1
KEY_C 1
KEY_C 0
KEY_LEFTCTRL 0
KEY_A 1
KEY_A 0
@50ms
KEY_LEFTALT 1
KEY_TAB 1
KEY_TAB 0
KEY_LEFTALT 0
@170ms
KEY_LEFTCTRL 1
KEY_V 1
KEY_V 0
KEY_LEFTCTRL 0
