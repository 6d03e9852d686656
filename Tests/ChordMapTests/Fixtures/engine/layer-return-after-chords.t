# return-after-chords = 2: the toggled layer returns to base after two chords tapped in it; the
# chord that uses up the count still runs in the layer. The toggling chord does not count.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = "toggle(nav)"
".x..." = "a"
[layers.nav]
return-after-chords = 2
".x..." = "left"
--- script
x....
.x...
.x...
.x...
--- output
@0ms
layer nav
@1000ms
KEY_LEFT 1
KEY_LEFT 0
@2000ms
KEY_LEFT 1
KEY_LEFT 0
layer base
@3000ms
KEY_A 1
KEY_A 0
