# Air gestures bind by name or code.
--- keymap
[gestures]
pinch = "click"
up-one-finger = "wheel-up"
"6" = "alt+left"
[layers.base]
"x...." = "a"
--- script
gesture 10
gesture 2
gesture 6
gesture 7
--- output
@0ms
BTN_LEFT 1
BTN_LEFT 0
@1000ms
REL_WHEEL_HI_RES 120
@2000ms
KEY_LEFTALT 1
KEY_LEFT 1
KEY_LEFT 0
KEY_LEFTALT 0
