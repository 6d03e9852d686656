# release-all releases a drag-locked button.
--- keymap
[layers.base]
"x...." = "drag-lock"
--- script
x....
release-all
--- output
@0ms
BTN_LEFT 1
@1000ms
BTN_LEFT 0
