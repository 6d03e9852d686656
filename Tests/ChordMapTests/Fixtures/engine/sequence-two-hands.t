# A sequence step can be a two-hand chord: both thumbs, then the right index alone.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"
".x..." = "b"
"....x|x...." = "space"
"....x|x...., .....|.x..." = "ctrl+t"
--- script
device R
device L
x.... +0ms
device R
x.... +200ms
.x... +1000ms
device L
x.... +0ms
device R
x.... +200ms
device L
.x...
--- output
@200ms
KEY_LEFTCTRL 1
KEY_T 1
KEY_T 0
KEY_LEFTCTRL 0
@1400ms
KEY_SPACE 1
KEY_SPACE 0
KEY_B 1
KEY_B 0
