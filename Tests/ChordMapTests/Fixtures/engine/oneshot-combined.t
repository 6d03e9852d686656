# One-shot modifiers stack (Ctrl then Shift) and are consumed together by the next key.
--- keymap
[layers.base]
"x...." = "oneshot(ctrl)"
".x..." = "oneshot(shift)"
"..x.." = "t"
--- script
x....
.x...
..x..
..x..
--- output
@2000ms
KEY_LEFTCTRL 1
KEY_LEFTSHIFT 1
KEY_T 1
KEY_T 0
KEY_LEFTCTRL 0
KEY_LEFTSHIFT 0
@3000ms
KEY_T 1
KEY_T 0
