# TapXR hand states, as the BLE layer delivers them (already majority-filtered, changes only):
# a bound button is held while the state lasts (short = click, long = drag), other actions run
# once on entry, a repeated state changes nothing, and the very first pinch counts.
--- keymap
[gestures]
hand-thumb-index = "click"
hand-fist = "vibrate(50)"
[layers.base]
"x...." = "a"
--- script
hand 101 +10ms
mouse 4 0 +10ms
hand 101 +10ms
hand 100 +10ms
hand 101 +10ms
hand 105 +10ms
hand 105 +10ms
hand 100
--- output
@0ms
BTN_LEFT 1
@10ms
REL_X 4
@30ms
BTN_LEFT 0
@40ms
BTN_LEFT 1
@50ms
BTN_LEFT 0
vibrate 50
