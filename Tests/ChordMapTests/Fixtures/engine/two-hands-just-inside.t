# Two hands as one keyboard: the left thumb can start a two-hand chord, so it waits up to
# combo-window-ms (60) for the right hand; the right thumb 59 ms later makes "both thumbs".
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"               # thumb, either hand
".x..." = "b"               # index, either hand
"....x|x...." = "space"     # both thumbs (left written pinky first)
--- script
device R
device L
x.... +59ms
device R
x....
--- output
@59ms
KEY_SPACE 1
KEY_SPACE 0
