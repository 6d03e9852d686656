# Shift falls through from base into the numbers layer: Shift then 1 is "!".
--- keymap
extends = "builtin"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
..xxx
xxx..
x....
--- output
@0ms
layer numbers
@2000ms
KEY_LEFTSHIFT 1
KEY_1 1
KEY_1 0
KEY_LEFTSHIFT 0
