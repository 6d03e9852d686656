# Acceleration: gain = 1 + 1.0 * (speed - 10) / 10 above speed 10, capped at max-gain 2.
--- keymap
[mouse]
sensitivity = 1.0
acceleration = 1.0
threshold = 10
max-gain = 2.0
[layers.base]
"x...." = "a"
--- script
mouse 10 0 +10ms
mouse 15 0 +10ms
mouse 0 -40 +10ms
--- output
@0ms
REL_X 10
@10ms
REL_X 22
@20ms
REL_Y -80
