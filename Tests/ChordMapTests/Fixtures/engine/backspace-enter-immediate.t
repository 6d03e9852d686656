# Backspace and Enter have no multi-tap bindings: immediate.
--- script
.xxx.
x..xx
--- output
@0ms
KEY_BACKSPACE 1
KEY_BACKSPACE 0
@1000ms
KEY_ENTER 1
KEY_ENTER 0
