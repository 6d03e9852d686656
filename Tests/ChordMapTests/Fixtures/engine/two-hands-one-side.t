# A chord of one particular hand ("|" with one side empty) wins over the any-hand binding for
# that hand; the other hand, and a device outside the pair, keep the any-hand binding.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"..x.." = "c"               # middle, either hand
".....|..x.." = "d"         # the right middle only
"..x..|" = "e"              # the left middle only (written pinky first: middle is in the middle)
"...x." = "f"               # ring, either hand
--- script
device L
..x.. +10ms
...x. +10ms
device R
..x.. +10ms
...x. +10ms
device other
..x..
--- output
@0ms
KEY_E 1
KEY_E 0
@10ms
KEY_F 1
KEY_F 0
@20ms
KEY_D 1
KEY_D 0
@30ms
KEY_F 1
KEY_F 0
@40ms
KEY_C 1
KEY_C 0
