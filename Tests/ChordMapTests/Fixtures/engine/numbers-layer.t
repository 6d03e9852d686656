# Switch toggles the numbers layer (digits are immediate there); Switch again returns to base.
--- keymap
extends = "builtin"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
..xxx
x....
.xxxx
..xxx
xx...
--- output
@0ms
layer numbers
@1000ms
KEY_1 1
KEY_1 0
@2000ms
KEY_0 1
KEY_0 0
@3000ms
layer base
@4000ms
KEY_N 1
KEY_N 0
