# A chord that continues no sequence ends the wait: what was pending runs as far as it means
# something (thumb = a), then the new chord runs on its own, at once.
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
..x.. +1000ms
x.... +100ms
.x... +100ms
.x...
--- output
@100ms
KEY_A 1
KEY_A 0
KEY_C 1
KEY_C 0
@1300ms
KEY_LEFTCTRL 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
KEY_B 1
KEY_B 0
