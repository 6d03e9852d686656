# Only a triple bound: two taps type the single action twice, three give the triple.
--- keymap
[layers.base]
"x...." = { tap = "a", triple = "b" }
--- script
x.... +100ms
x....
x.... +100ms
x.... +100ms
x....
--- output
@400ms
KEY_A 1
KEY_A 0
KEY_A 1
KEY_A 0
@1300ms
KEY_B 1
KEY_B 0
