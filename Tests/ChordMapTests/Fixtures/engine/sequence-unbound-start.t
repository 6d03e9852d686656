# A chord that only starts a sequence types nothing alone; its sequence runs at once, and a
# chord that starts nothing types without waiting.
--- keymap
[layers.base]
"x...." = "a"
".x..." = "b"
"..x.." = "c"
"x...., .x..." = "ctrl+s"                 # a prefix that is a binding of its own
"x...., .x..., ..x.." = "ctrl+shift+s"    # the longer sequence
"...x., ...x." = "escape"                 # ring twice: the ring alone means nothing
--- script
...x. +1000ms
...x. +100ms
...x. +1000ms
.x...
--- output
@1100ms
KEY_ESC 1
KEY_ESC 0
@2100ms
KEY_B 1
KEY_B 0
