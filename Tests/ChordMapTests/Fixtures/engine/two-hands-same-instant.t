# Both hands at the same instant: the second notification completes the chord at once.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"               # thumb, either hand: one side of "both thumbs"
".x..." = "b"               # index, either hand: no two-hand chord starts with it
"....x|x...." = "space"     # both thumbs (left written pinky first)
--- script
device L
device R
x.... +0ms
device L
x....
--- output
@0ms
KEY_SPACE 1
KEY_SPACE 0
