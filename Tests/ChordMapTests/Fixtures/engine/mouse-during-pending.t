# Mouse packets do not resolve a pending multi-tap.
--- script
x.... +100ms
mouse 2 0 +100ms
x....
--- output
@100ms
REL_X 2
@500ms
KEY_V 1
KEY_V 0
