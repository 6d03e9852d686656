# Auto-return pulses like any return to base (released), at the deadline.
--- keymap
[layers.base]
"x...." = "toggle(nav)"
[layers.nav]
return-after-ms = 300
--- script
x....
--- output
@0ms
layer nav
vibrate 60
@300ms
layer base
vibrate 30 60 30
