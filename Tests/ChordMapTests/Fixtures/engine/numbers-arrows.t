# Arrows in the numbers layer.
--- keymap
extends = "builtin"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
..xxx
xx...
.xx..
..xx.
x..x.
--- output
@0ms
layer numbers
@1000ms
KEY_LEFT 1
KEY_LEFT 0
@2000ms
KEY_UP 1
KEY_UP 0
@3000ms
KEY_RIGHT 1
KEY_RIGHT 0
@4000ms
KEY_DOWN 1
KEY_DOWN 0
