# toggle(x) from another toggled layer switches to x; toggling x again returns to base. Default pulses: moving to another layer is "engaged", back to base "released".
--- keymap
[layers.base]
"x...." = "toggle(one)"
".x..." = "a"
[layers.one]
"x...." = "toggle(two)"
".x..." = "b"
[layers.two]
"x...." = "toggle(two)"
".x..." = "c"
--- script
x....
.x...
x....
.x...
x....
.x...
--- output
@0ms
layer one
vibrate 60
@1000ms
KEY_B 1
KEY_B 0
@2000ms
layer two
vibrate 60
@3000ms
KEY_C 1
KEY_C 0
@4000ms
layer base
vibrate 30 60 30
@5000ms
KEY_A 1
KEY_A 0
