# A sequence that holds a macro (here through an alias) becomes one macro, so "d" waits for "c"
# instead of overtaking it; a macro that is the whole of an alias keeps its delays.
--- keymap
[aliases]
bc = { macro = ["b", 200, "c"] }
[feedback]
haptics = false
[layers.base]
"x...." = ["a", "@bc", "d"]
--- script
x....
--- output
@0ms
KEY_A 1
KEY_A 0
KEY_B 1
KEY_B 0
@200ms
KEY_C 1
KEY_C 0
KEY_D 1
KEY_D 0
