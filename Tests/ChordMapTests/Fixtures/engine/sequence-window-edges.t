# The next chord 499 ms later still continues the sequence; 500 ms later the wait has ended.
--- keymap
[layers.base]
"x...." = "a"
".x..." = "b"
"..x.." = "c"
"x...., .x..." = "ctrl+s"                 # a prefix that is a binding of its own
"x...., .x..., ..x.." = "ctrl+shift+s"    # the longer sequence
"...x., ...x." = "escape"                 # ring twice: the ring alone means nothing
--- script
x.... +499ms
.x... +1000ms
x.... +500ms
.x...
--- output
@999ms
KEY_LEFTCTRL 1
KEY_S 1
KEY_S 0
KEY_LEFTCTRL 0
@1999ms
KEY_A 1
KEY_A 0
KEY_B 1
KEY_B 0
