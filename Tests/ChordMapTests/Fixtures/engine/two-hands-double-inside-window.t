# A tap that waits for the other hand inside a pending double tap's window still counts: the
# pending chord waits for it (280 ms after the first tap, the wait ends at 340 ms).
--- keymap
[hands]
left = "L"
right = "R"

[feedback]
haptics = false

[layers.base]
"x...." = { tap = "a", double = "e" }
"....x|x...." = "space"
--- script
device R
device L
x.... +280ms
x....
--- output
@340ms
KEY_E 1
KEY_E 0
