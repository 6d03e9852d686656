# Clicking the drag-locked button releases it (one release, no extra click).
--- keymap
[layers.base]
"x...." = "drag-lock"
".x..." = "click"
--- script
x....
.x...
.x...
--- output
@0ms
BTN_LEFT 1
@1000ms
BTN_LEFT 0
@2000ms
BTN_LEFT 1
BTN_LEFT 0
