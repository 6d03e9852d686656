# multi-tap-window-ms = 150: a second tap 160 ms later is a new tap.
--- keymap
[options]
multi-tap-window-ms = 150
[layers.base]
"x...." = { tap = "a", double = "b" }
--- script
x.... +160ms
x.... +140ms
x....
--- output
@150ms
KEY_A 1
KEY_A 0
@300ms
KEY_B 1
KEY_B 0
