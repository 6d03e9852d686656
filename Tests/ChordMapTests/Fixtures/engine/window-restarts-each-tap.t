# The window is measured from the previous tap, not the first: 250 + 250 ms is still a triple.
--- script
x.... +250ms
x.... +250ms
x....
--- output
@500ms
KEY_LEFTSHIFT 1
KEY_2 1
KEY_2 0
KEY_LEFTSHIFT 0
