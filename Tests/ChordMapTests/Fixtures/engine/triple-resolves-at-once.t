# The third tap of a chord whose highest binding is the triple resolves at once ("@").
--- script
x.... +100ms
x.... +100ms
x....
--- output
@200ms
KEY_LEFTSHIFT 1
KEY_2 1
KEY_2 0
KEY_LEFTSHIFT 0
