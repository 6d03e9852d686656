# One device of a pair connected alone types the one-hand bindings, without waiting for a
# hand that is not there.
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
x.... +10ms
.x...
--- output
@0ms
KEY_A 1
KEY_A 0
@10ms
KEY_B 1
KEY_B 0
