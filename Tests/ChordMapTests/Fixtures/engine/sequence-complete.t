# Chords in a row (within sequence-window-ms, 500 ms, of each other) make a sequence. The
# longest sequence runs as soon as its last chord arrives: nothing longer is possible.
--- keymap
[layers.base]
"x...." = "a"
".x..." = "b"
"..x.." = "c"
"x...., .x..." = "ctrl+s"                 # a prefix that is a binding of its own
"x...., .x..., ..x.." = "ctrl+shift+s"    # the longer sequence
"...x., ...x." = "escape"                 # ring twice: the ring alone means nothing
--- script
x.... +100ms
.x... +100ms
..x..
--- output
@200ms
KEY_LEFTCTRL 1
KEY_LEFTSHIFT 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
KEY_LEFTSHIFT 0
