# toggle(nav) stays until clear (back to base, locks dropped). Shows the default pulses (on by default): engaged for the lock and the layer, released once for clear.
--- keymap
[layers.base]
"x...." = "toggle(nav)"
".x..." = "a"
"..x.." = "lock(shift)"
[layers.nav]
".x..." = "left"
"xx..." = "clear"
--- script
..x..
x....
.x...
.x...
xx...
.x...
--- output
@0ms
vibrate 60
@1000ms
layer nav
vibrate 60
@2000ms
KEY_LEFTSHIFT 1
KEY_LEFT 1
KEY_LEFT 0
KEY_LEFTSHIFT 0
@3000ms
KEY_LEFTSHIFT 1
KEY_LEFT 1
KEY_LEFT 0
KEY_LEFTSHIFT 0
@4000ms
layer base
vibrate 30 60 30
@5000ms
KEY_A 1
KEY_A 0
