# A one-shot layer is used up by the first tap of a multi-tap chord; the double tap still counts.
--- keymap
[layers.base]
"x...." = "layer(nav)"
".x..." = "a"
[layers.nav]
".x..." = { tap = "left", double = "home" }
--- script
x....
.x... +100ms
.x...
.x...
--- output
@0ms
layer nav
@1000ms
layer base
@1100ms
KEY_HOME 1
KEY_HOME 0
@2100ms
KEY_A 1
KEY_A 0
