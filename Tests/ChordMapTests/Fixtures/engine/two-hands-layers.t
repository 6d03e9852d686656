# Both hands share one state: a layer toggled by one hand applies to the other. A two-hand chord
# means what the active layer says; a tap waiting for the other hand when the other hand
# toggles the layer plays first, in the layer it was tapped in.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"
"..xxx" = "toggle(nav)"
"....x|x...." = "space"

[layers.nav]
"....x|x...." = "tab"
".x..." = "up"
[feedback]
haptics = false   # pulses have their own fixtures
--- script
device R
device L
x.... +10ms
device R
x.... +100ms
..xxx +100ms
device L
.x... +100ms
x.... +10ms
device R
x.... +100ms
device L
x.... +10ms
device R
..xxx
--- output
@10ms
KEY_SPACE 1
KEY_SPACE 0
@110ms
layer nav
@210ms
KEY_UP 1
KEY_UP 0
@320ms
KEY_TAB 1
KEY_TAB 0
@430ms
KEY_A 1
KEY_A 0
layer base
