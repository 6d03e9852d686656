# Key combinations hold modifiers around the key (pressed first, released last).
--- keymap
[layers.base]
"x...." = "ctrl+c"
".x..." = "ctrl+shift+t"
"..x.." = "alt+tab"
"...x." = "?"
--- script
x....
.x...
..x..
...x.
--- output
@0ms
KEY_LEFTCTRL 1
KEY_C 1
KEY_C 0
KEY_LEFTCTRL 0
@1000ms
KEY_LEFTCTRL 1
KEY_LEFTSHIFT 1
KEY_T 1
KEY_T 0
KEY_LEFTCTRL 0
KEY_LEFTSHIFT 0
@2000ms
KEY_LEFTALT 1
KEY_TAB 1
KEY_TAB 0
KEY_LEFTALT 0
@3000ms
KEY_LEFTSHIFT 1
KEY_SLASH 1
KEY_SLASH 0
KEY_LEFTSHIFT 0
