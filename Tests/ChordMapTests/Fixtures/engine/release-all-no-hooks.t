# release-all resets state without running on-leave or pulsing: the device may be gone.
--- keymap
[layers.base]
"x...." = "toggle(nav)"
[layers.nav]
on-leave = "f13"
--- script
x....
release-all
--- output
@0ms
layer nav
vibrate 60
@1000ms
layer base
