# layer(nav) applies to the next chord only, then the base layer is back.
--- keymap
[layers.base]
"x...." = "layer(nav)"
".x..." = "a"
[layers.nav]
".x..." = "left"
--- script
x....
.x...
.x...
--- output
@0ms
layer nav
@1000ms
KEY_LEFT 1
KEY_LEFT 0
layer base
@2000ms
KEY_A 1
KEY_A 0
