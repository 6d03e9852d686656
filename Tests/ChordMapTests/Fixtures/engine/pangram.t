# Types a pangram with capitals, digits and punctuation (tested exactly in PangramTests too).
--- script
# The pangram, written in TapCode: Shift for capitals, Switch for digits, double and triple
# taps (100 ms apart) for punctuation. Taps are 1000 ms apart otherwise.
xxx..   # Shift
...xx   # 'S'
xx..x   # 'p'
.xxxx   # 'h'
..x..   # 'i'
xx...   # 'n'
.x.xx   # 'x'
xxxxx   # ' '
...x.   # 'o'
xx.x.   # 'f'
xxxxx   # ' '
.x..x   # 'b'
..xx.   # 'l'
x....   # 'a'
x.xxx   # 'c'
x..x.   # 'k'
xxxxx   # ' '
...x. +100ms
...x.   # 'q'
....x   # 'u'
x....   # 'a'
xxxx.   # 'r'
.xx..   # 't'
..x.x   # 'z'
.x.x. +100ms
.x.x.   # ','
xxxxx   # ' '
..x.. +100ms
..x..   # 'j'
....x   # 'u'
x.x..   # 'd'
x.xx.   # 'g'
.x...   # 'e'
xxxxx   # ' '
.x.x.   # 'm'
x...x   # 'y'
xxxxx   # ' '
x.... +100ms
x....   # 'v'
...x.   # 'o'
....x +100ms
....x   # 'w'
.x... +100ms
.x...   # '!'
xxxxx   # ' '
.xx.. +100ms
.xx..   # '"'
..xxx   # Switch
...x.   # '4'
.x...   # '2'
..xxx   # Switch back
.xx.. +100ms
.xx..   # '"'
xxxxx   # ' '
xx..x +100ms
xx..x   # '('
x...x   # 'y'
.x...   # 'e'
...xx   # 's'
xx..x +100ms
xx..x +100ms
xx..x   # ')'
x.xxx +100ms
x.xxx   # ':'
xxxxx   # ' '
..xxx   # Switch
.x..x   # '7'
xxxxx   # ' '
..xxx   # Switch back
..xx. +100ms
..xx. +100ms
..xx.   # '+'
xxxxx   # ' '
..xxx   # Switch
..x.x   # '8'
xxxxx   # ' '
..xxx   # Switch back
.x... +100ms
.x... +100ms
.x...   # '='
xxxxx   # ' '
..xxx   # Switch
x....   # '1'
....x   # '5'
..xxx   # Switch back
x..x. +100ms
x..x.   # '?'
--- text
Sphinx of black quartz, judge my vow! "42" (yes): 7 + 8 = 15?
