# Text frames: Shift is pressed with the shifted character only.
--- keymap
[layers.base]
"x...." = { text = "Hi!" }
--- script
x....
--- output
@0ms
KEY_LEFTSHIFT 1
KEY_H 1
KEY_H 0
KEY_LEFTSHIFT 0
KEY_I 1
KEY_I 0
KEY_LEFTSHIFT 1
KEY_1 1
KEY_1 0
KEY_LEFTSHIFT 0
