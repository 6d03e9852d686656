# on-enter / on-leave run on every way the layer becomes active or inactive: toggle, one-shot,
# clear and auto-return. Order: the old layer's on-leave, the layer change, the new layer's
# on-enter. A hook replaces the default pulse for its layer (feedback is on here).
--- keymap
[layers.base]
"x...." = "toggle(nav)"
".x..." = "a"
"..x.." = "layer(nav)"
[layers.nav]
on-enter = "vibrate(40)"
on-leave = ["vibrate(20,20,20)", "f13"]
return-after-chords = 3
".x..." = "left"
"...x." = "clear"
--- script
x....
.x...
x....
..x..
.x...
x....
...x.
x....
.x...
.x...
.x...
--- output
@0ms
layer nav
vibrate 40
@1000ms
KEY_LEFT 1
KEY_LEFT 0
@2000ms
vibrate 20 20 20
KEY_F13 1
KEY_F13 0
layer base
@3000ms
layer nav
vibrate 40
@4000ms
KEY_LEFT 1
KEY_LEFT 0
vibrate 20 20 20
KEY_F13 1
KEY_F13 0
layer base
@5000ms
layer nav
vibrate 40
@6000ms
vibrate 20 20 20
KEY_F13 1
KEY_F13 0
layer base
@7000ms
layer nav
vibrate 40
@8000ms
KEY_LEFT 1
KEY_LEFT 0
@9000ms
KEY_LEFT 1
KEY_LEFT 0
@10000ms
KEY_LEFT 1
KEY_LEFT 0
vibrate 20 20 20
KEY_F13 1
KEY_F13 0
layer base
