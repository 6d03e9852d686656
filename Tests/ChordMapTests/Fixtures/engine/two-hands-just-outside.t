# The right thumb exactly at the end of the window (60 ms) is too late: the left thumb types on
# its own when the window ends, then the right thumb waits in turn and types on its own.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"               # thumb, either hand: one side of "both thumbs"
".x..." = "b"               # index, either hand: no two-hand chord starts with it
"....x|x...." = "space"     # both thumbs (left written pinky first)
--- script
device R
device L
x.... +60ms
device R
x....
--- output
@60ms
KEY_A 1
KEY_A 0
@120ms
KEY_A 1
KEY_A 0
