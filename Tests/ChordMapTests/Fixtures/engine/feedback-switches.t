# [feedback] switches pulses per kind: here layer pulses stay on and lock pulses are off.
# One-shot layers never pulse by default.
--- keymap
[feedback]
lock = false
[layers.base]
"x...." = "toggle(nav)"
".x..." = "lock(shift)"
"..x.." = "layer(nav)"
[layers.nav]
"x...." = "toggle(nav)"
--- script
.x...
x....
x....
..x..
.x...
--- output
@1000ms
layer nav
vibrate 60
@2000ms
layer base
vibrate 30 60 30
@3000ms
layer nav
@4000ms
layer base
