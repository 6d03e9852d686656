# toggle(x) from another toggled layer switches to x; toggling x again returns to base.
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
@1000ms
KEY_B 1
KEY_B 0
@2000ms
layer two
@3000ms
KEY_C 1
KEY_C 0
@4000ms
layer base
@5000ms
KEY_A 1
KEY_A 0
