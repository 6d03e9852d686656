# return-after-chords counts played chords: a two-hand chord is one chord, not two taps.
--- keymap
[hands]
left = "L"
right = "R"
[feedback]
haptics = false
[layers.base]
"..xxx" = "toggle(nav)"
[layers.nav]
return-after-chords = 2
"....x|x...." = "tab"
".x..." = "up"
--- script
device R
device L
..xxx
x.... +10ms
device R
x....
device L
.x...
.x...
--- output
@0ms
layer nav
@1010ms
KEY_TAB 1
KEY_TAB 0
@2010ms
KEY_UP 1
KEY_UP 0
layer base
