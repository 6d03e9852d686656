# natural-scroll flips the wheel direction.
--- keymap
[mouse]
scroll-sensitivity = 10
natural-scroll = true
[layers.base]
"x...." = "toggle-scroll"
--- script
x.... +10ms
mouse 0 -12
--- output
@10ms
REL_WHEEL_HI_RES -120
