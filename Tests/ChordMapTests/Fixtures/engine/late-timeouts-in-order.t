# Two devices' pending multi-taps each fire at their own deadline: device z's "a" at 300 ms,
# device b's "c" at 350 ms.
--- keymap
[layers.base]
"x...." = { tap = "a", double = "b" }
".x..." = { tap = "c", double = "d" }
"..x.." = "e"
--- script
device z
x.... +50ms
device b
.x... +50ms
wait +0ms
--- output
@300ms
KEY_A 1
KEY_A 0
@350ms
KEY_C 1
KEY_C 0
