# A different chord ends the pending multi-tap at once, in order: "a" then "n", both at 100 ms.
--- script
x.... +100ms
xx...
--- output
@100ms
KEY_A 1
KEY_A 0
KEY_N 1
KEY_N 0
