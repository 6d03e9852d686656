# invert-x and invert-y flip the axes.
--- keymap
[mouse]
invert-x = true
invert-y = true
[layers.base]
"x...." = "a"
--- script
mouse 4 -3
--- output
@0ms
REL_X -4
REL_Y 3
