# Sub-pixel remainders carry over: 0.4 px per unit, packets of 1 unit give 1 px every 2-3 packets.
--- keymap
[mouse]
sensitivity = 0.4
[layers.base]
"x...." = "a"
--- script
mouse 1 0 +10ms
mouse 1 0 +10ms
mouse 1 0 +10ms
mouse 1 0 +10ms
mouse 1 0 +10ms
mouse -1 0 +10ms
--- output
@20ms
REL_X 1
@40ms
REL_X 1
