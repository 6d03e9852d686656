# toggle-scroll turns motion into wheel (up for motion away from the user); toggling back moves again.
--- keymap
[mouse]
scroll-sensitivity = 10
[layers.base]
"x...." = "toggle-scroll"
--- script
x.... +10ms
mouse 0 -12 +10ms
mouse 3 0 +10ms
x.... +10ms
mouse 3 0
--- output
@10ms
REL_WHEEL_HI_RES 120
@20ms
REL_HWHEEL_HI_RES 30
@40ms
REL_X 3
