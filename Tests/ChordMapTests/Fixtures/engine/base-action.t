# "base" returns to the base layer from a toggled one but keeps a locked modifier; "none" in a
# layer stops fallthrough.
--- keymap
[layers.base]
"x...." = "toggle(nav)"
".x..." = "a"
"..x.." = "lock(ctrl)"
"...x." = "b"
[layers.nav]
".x..." = "left"
"...x." = "none"
"xx..." = "base"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
..x..
x....
.x...
...x.
xx...
.x...
--- output
@1000ms
layer nav
@2000ms
KEY_LEFTCTRL 1
KEY_LEFT 1
KEY_LEFT 0
KEY_LEFTCTRL 0
@4000ms
layer base
@5000ms
KEY_LEFTCTRL 1
KEY_A 1
KEY_A 0
KEY_LEFTCTRL 0
