# release-all returns to base and forgets one-shot Shift.
--- script
..xxx
xxx..
release-all
x....
--- output
@0ms
layer numbers
@2000ms
layer base
@3300ms
KEY_A 1
KEY_A 0
