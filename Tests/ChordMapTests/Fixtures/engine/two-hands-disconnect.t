# One hand disconnects while the other's tap waits: the pair's state is dropped (the waiting
# tap is not typed) and the button drag lock held is released. The left hand then types alone,
# at once: no other hand is there to wait for.
--- keymap
[hands]
left = "L"
right = "R"

[layers.base]
"x...." = "a"
"..x.." = "drag-lock"
"....x|x...." = "space"
--- script
device R
device L
..x.. +10ms
x.... +10ms
device R
disconnect +10ms
device L
x....
--- output
@0ms
BTN_LEFT 1
@20ms
BTN_LEFT 0
@30ms
KEY_A 1
KEY_A 0
