# lock(ctrl) holds Ctrl around every key until lock(ctrl) again.
--- keymap
[layers.base]
"x...." = "lock(ctrl)"
".x..." = "c"
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
x....
.x...
.x...
x....
.x...
--- output
@1000ms
KEY_LEFTCTRL 1
KEY_C 1
KEY_C 0
KEY_LEFTCTRL 0
@2000ms
KEY_LEFTCTRL 1
KEY_C 1
KEY_C 0
KEY_LEFTCTRL 0
@4000ms
KEY_C 1
KEY_C 0
