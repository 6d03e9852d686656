# toggle(nav) stays until clear (back to base, locks dropped).
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
@1000ms
layer nav
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
@5000ms
KEY_A 1
KEY_A 0
