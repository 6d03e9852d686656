# Third tap exactly at the end of the window after the second: a double ("v"), then a new "a".
--- script
x.... +100ms
x.... +300ms
x....
--- output
@400ms
KEY_V 1
KEY_V 0
@700ms
KEY_A 1
KEY_A 0
