# A chord tapped while a macro waits runs at once (no chord ever waits for a macro), between two
# macro steps, never inside one: each step is its press and its release.
--- keymap
[feedback]
haptics = false
[layers.base]
"x...." = { macro = ["a", 100, "b", 100, "c"] }
".x..." = "z"
--- script
x.... +50ms
.x... +100ms
.x...
--- output
@0ms
KEY_A 1
KEY_A 0
@50ms
KEY_Z 1
KEY_Z 0
@100ms
KEY_B 1
KEY_B 0
@150ms
KEY_Z 1
KEY_Z 0
@200ms
KEY_C 1
KEY_C 0
