# Zero latency where nothing is ambiguous: the index finger starts no two-hand chord, so it
# types the moment it arrives, on either hand.
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
.x... +10ms
device L
.x...
--- output
@0ms
KEY_B 1
KEY_B 0
@10ms
KEY_B 1
KEY_B 0
