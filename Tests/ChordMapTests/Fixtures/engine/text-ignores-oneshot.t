# Text is literal: an armed one-shot Shift does not change it, and stays armed for the next key.
--- keymap
[layers.base]
"x...." = "oneshot(shift)"
".x..." = { text = "ok" }
"..x.." = "a"
--- script
x....
.x...
..x..
--- text
okA
