# Each device has its own one-shots and pending taps; both type into the same pressed set.
--- keymap
[layers.base]
"x...." = "oneshot(shift)"
".x..." = "a"
"..x.." = { tap = "b", double = "c" }
--- script
device left
x.... +10ms
device right
.x... +10ms
device left
.x... +10ms
..x.. +100ms
device right
..x.. +100ms
device left
..x..
--- output
@10ms
KEY_A 1
KEY_A 0
@20ms
KEY_LEFTSHIFT 1
KEY_A 1
KEY_A 0
KEY_LEFTSHIFT 0
@230ms
KEY_C 1
KEY_C 0
@430ms
KEY_B 1
KEY_B 0
