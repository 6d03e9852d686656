# Wheel actions in hi-res units (120 = one notch); wheel(3) = three notches.
--- keymap
[layers.base]
"x...." = "wheel-up"
".x..." = "wheel-down"
"..x.." = "wheel-left"
"...x." = "wheel-right"
"....x" = "wheel(3)"
"xx..." = "hwheel(-2)"
--- script
x....
.x...
..x..
...x.
....x
xx...
--- output
@0ms
REL_WHEEL_HI_RES 120
@1000ms
REL_WHEEL_HI_RES -120
@2000ms
REL_HWHEEL_HI_RES -120
@3000ms
REL_HWHEEL_HI_RES 120
@4000ms
REL_WHEEL_HI_RES 360
@5000ms
REL_HWHEEL_HI_RES -240
