# Second tap 299 ms after the first counts as a double tap ("v"); "a" also has a
# triple, so "v" waits for its own window after the second tap (299 + 300 = 599).
--- script
x.... +299ms
x....
--- output
@599ms
KEY_V 1
KEY_V 0
