# "x...., .x..." is bound but could still grow into the longer sequence: it waits until the
# window after its last chord ends (100 + 500 ms), then runs.
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
.x...
--- output
@600ms
KEY_LEFTCTRL 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
