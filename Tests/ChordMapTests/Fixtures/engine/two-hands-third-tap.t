# A third tap while one waits: the same hand again plays the waiting tap on its own (in order)
# and then waits itself; the right thumb inside the new window makes the two-hand chord.
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
x.... +20ms
x.... +20ms
device R
x....
--- output
@20ms
KEY_A 1
KEY_A 0
@40ms
KEY_SPACE 1
KEY_SPACE 0
