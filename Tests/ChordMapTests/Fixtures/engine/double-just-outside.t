# Second tap exactly 300 ms later is outside the window: two separate "a"s.
--- script
x.... +300ms
x....
--- output
@300ms
KEY_A 1
KEY_A 0
@600ms
KEY_A 1
KEY_A 0
