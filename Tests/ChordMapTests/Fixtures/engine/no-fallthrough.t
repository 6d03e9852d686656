# fallthrough = false: chords the layer does not bind do nothing.
--- keymap
[layers.base]
"x...." = "toggle(strict)"
".x..." = "a"
"..x.." = "b"
[layers.strict]
fallthrough = false
"x...." = "toggle(strict)"
".x..." = "1"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
x....
.x...
..x..
x....
..x..
--- output
@0ms
layer strict
@1000ms
KEY_1 1
KEY_1 0
@3000ms
layer base
@4000ms
KEY_B 1
KEY_B 0
