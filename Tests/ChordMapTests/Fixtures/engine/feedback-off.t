# haptics = false turns every default pulse off: connect, layer and lock. Explicit vibrate()
# actions and on-enter hooks still run.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = "toggle(nav)"
".x..." = "lock(shift)"
"..x.." = "vibrate(100)"
[layers.nav]
on-enter = "vibrate(40)"
--- script
connect
.x...
x....
..x..
--- output
@2000ms
layer nav
vibrate 40
@3000ms
vibrate 100
