# An unbound chord types nothing, but like any tap it first resolves a pending multi-tap.
--- keymap
[layers.base]
"x...." = { tap = "a", double = "b" }
--- script
x.... +100ms
.x...
.x...
--- output
@100ms
KEY_A 1
KEY_A 0
