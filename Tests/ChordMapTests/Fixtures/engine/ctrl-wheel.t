# A one-shot Ctrl applies to a wheel action (zoom) and is then released.
--- keymap
[layers.base]
"x...." = "oneshot(ctrl)"
".x..." = "wheel-up"
--- script
x....
.x...
.x...
--- output
@1000ms
KEY_LEFTCTRL 1
REL_WHEEL_HI_RES 120
KEY_LEFTCTRL 0
@2000ms
REL_WHEEL_HI_RES 120
