# Four quick taps: the triple ("@") resolves on the third; the fourth starts a new pending "a".
--- script
x.... +100ms
x.... +100ms
x.... +100ms
x....
--- output
@200ms
KEY_LEFTSHIFT 1
KEY_2 1
KEY_2 0
KEY_LEFTSHIFT 0
@600ms
KEY_A 1
KEY_A 0
