# return-after-ms = 500: the toggled layer returns to base 500 ms after the last chord tapped in
# it (or after entering it, if none was). The return is an engine deadline and is announced then.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = "toggle(nav)"
".x..." = "a"
[layers.nav]
return-after-ms = 500
".x..." = "left"
--- script
x.... +400ms
.x... +400ms
.x... +499ms
.x... +2000ms
x.... +700ms
.x...
--- output
@0ms
layer nav
@400ms
KEY_LEFT 1
KEY_LEFT 0
@800ms
KEY_LEFT 1
KEY_LEFT 0
@1299ms
KEY_LEFT 1
KEY_LEFT 0
@1799ms
layer base
@3299ms
layer nav
@3799ms
layer base
@3999ms
KEY_A 1
KEY_A 0
