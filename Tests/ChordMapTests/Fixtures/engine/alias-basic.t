# [aliases] name actions once; "@name" uses them in any layer, inside sequences and macros too.
# A lone "@" is still the character.
--- keymap
[aliases]
save = "ctrl+s"
sig = { text = "Hi" }
both = ["@save", "@sig"]
[feedback]
haptics = false
[layers.base]
"x...." = "@save"
".x..." = "@both"
"..x.." = "layer(nav)"
"...x." = "@"
[layers.nav]
".x..." = "@sig"
--- script
x....
.x...
..x..
.x...
...x.
--- output
@0ms
KEY_LEFTCTRL 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
@1000ms
KEY_LEFTCTRL 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
KEY_LEFTSHIFT 1
KEY_H 1
KEY_H 0
KEY_LEFTSHIFT 0
KEY_I 1
KEY_I 0
@2000ms
layer nav
@3000ms
KEY_LEFTSHIFT 1
KEY_H 1
KEY_H 0
KEY_LEFTSHIFT 0
KEY_I 1
KEY_I 0
layer base
@4000ms
KEY_LEFTSHIFT 1
KEY_2 1
KEY_2 0
KEY_LEFTSHIFT 0
