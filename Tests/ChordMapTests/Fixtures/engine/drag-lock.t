# Drag lock holds the left button across frames (motion keeps it held); drag-lock again releases.
--- keymap
[layers.base]
"x...." = "drag-lock"
".x..." = "a"
--- script
x.... +10ms
mouse 5 0 +10ms
.x...
x....
--- output
@0ms
BTN_LEFT 1
@10ms
REL_X 5
@20ms
KEY_A 1
KEY_A 0
@1020ms
BTN_LEFT 0
