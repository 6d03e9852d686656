# Multi-tap windows compose with the two-hand window: a two-hand chord can have a double tap,
# and a one-hand chord that waits for the other hand still counts its repeats (the multi-tap
# window runs from each tap, the wait for the other hand comes first).
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = { tap = "a", double = "e" }
"....x|x...." = { tap = "space", double = "tab" }
--- script
device R
device L
x.... +0ms
device R
x.... +100ms
device L
x.... +0ms
device R
x.... +1000ms
device L
x.... +150ms
x.... +1000ms
x....
--- output
@100ms
KEY_TAB 1
KEY_TAB 0
@1310ms
KEY_E 1
KEY_E 0
@2550ms
KEY_A 1
KEY_A 0
