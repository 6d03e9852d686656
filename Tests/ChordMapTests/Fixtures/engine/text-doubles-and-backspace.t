# Punctuation from double taps, and Backspace deleting.
--- script
.xx..
.x... +100ms
.x...
.xxx.
.xxx.
.x...
.x.x. +100ms
.x.x.
--- text
e,
