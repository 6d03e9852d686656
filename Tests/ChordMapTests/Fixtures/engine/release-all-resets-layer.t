# release-all returns to base and forgets one-shot Shift.
--- keymap
extends = "builtin"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
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
