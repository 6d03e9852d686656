# Clicks: left, right, middle, and a double click.
--- keymap
[layers.base]
"x...." = "click"
".x..." = "right-click"
"..x.." = "middle-click"
"...x." = "double-click"
--- script
x....
.x...
..x..
...x.
--- output
@0ms
BTN_LEFT 1
BTN_LEFT 0
@1000ms
BTN_RIGHT 1
BTN_RIGHT 0
@2000ms
BTN_MIDDLE 1
BTN_MIDDLE 0
@3000ms
BTN_LEFT 1
BTN_LEFT 0
BTN_LEFT 1
BTN_LEFT 0
