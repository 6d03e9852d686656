# Haptics and device mode actions become outputs, not key events.
--- keymap
[layers.base]
"x...." = "vibrate(100,50,100)"
".x..." = "input-mode(controller+mouse)"
"..x.." = "xr-state(air-mouse)"
--- script
x....
.x...
..x..
--- output
@0ms
vibrate 100 50 100
@1000ms
input-mode controller+mouse
@2000ms
xr-state air-mouse
