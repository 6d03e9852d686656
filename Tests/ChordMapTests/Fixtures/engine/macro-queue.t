# A macro triggered while another runs on the same device queues behind it: its first step runs
# right after the running macro's last one (plus its own leading delay), so the two never mix.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = ["a", 100, "b"] }
".x..." = { macro = ["c", 50, "d"] }
--- script
x.... +20ms
.x...
--- output
@0ms
KEY_A 1
KEY_A 0
@100ms
KEY_B 1
KEY_B 0
KEY_C 1
KEY_C 0
@150ms
KEY_D 1
KEY_D 0
