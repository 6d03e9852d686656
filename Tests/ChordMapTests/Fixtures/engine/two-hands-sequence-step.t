# Both thumbs mean something only as the second step of a sequence. Tapped with nothing
# pending, the pair means nothing, so each thumb plays on its own (nothing is lost); after a
# thumb, they complete the sequence.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"
"x...., ....x|x...." = "tab"
--- script
device R
device L
x.... +0ms
device R
x.... +1000ms
device L
x.... +200ms
x.... +0ms
device R
x....
--- output
@60ms
KEY_A 1
KEY_A 0
@500ms
KEY_A 1
KEY_A 0
@1200ms
KEY_TAB 1
KEY_TAB 0
