# Shift is one-shot: it shifts the next letter only.
--- script
xxx..
x....
x....
--- output
@1300ms
KEY_LEFTSHIFT 1
KEY_A 1
KEY_A 0
KEY_LEFTSHIFT 0
@2300ms
KEY_A 1
KEY_A 0
