# TapXR hand states: majority of the last three decides; a bound button is held while the state
# lasts (short = click, long = drag), a lone glitch is ignored, other actions run once on entry.
--- keymap
[gestures]
hand-thumb-index = "click"
hand-fist = "vibrate(50)"
[layers.base]
"x...." = "a"
--- script
hand 100 +10ms
hand 101 +10ms
hand 100 +10ms
hand 101 +10ms
hand 101 +10ms
mouse 4 0 +10ms
hand 101 +10ms
hand 100 +10ms
hand 100 +10ms
hand 105 +10ms
hand 105 +10ms
hand 105
--- output
@30ms
BTN_LEFT 1
@50ms
REL_X 4
@80ms
BTN_LEFT 0
@100ms
vibrate 50
