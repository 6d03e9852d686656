# Chords the numbers layer does not bind fall through to base ("c" keeps its double binding, so it waits).
--- keymap
extends = "builtin"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
..xxx
x.xxx
x..xx
--- output
@0ms
layer numbers
@1300ms
KEY_C 1
KEY_C 0
@2000ms
KEY_ENTER 1
KEY_ENTER 0
