# A delay before the first action delays it too; delays in a row add up; a 0 ms delay only orders.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = [100, "a", 30, 20, "b", 0, "c"] }
--- script
x....
--- output
@100ms
KEY_A 1
KEY_A 0
@150ms
KEY_B 1
KEY_B 0
KEY_C 1
KEY_C 0
