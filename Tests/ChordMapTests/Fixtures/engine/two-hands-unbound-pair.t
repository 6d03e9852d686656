# The other hand's tap inside the window, but the pair means nothing: each plays on its own,
# in the order tapped, at once.
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
x.... +30ms
device R
.x...
--- output
@30ms
KEY_A 1
KEY_A 0
KEY_B 1
KEY_B 0
