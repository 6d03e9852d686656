# Typed text of a short word with a capital.
--- script
xxx..
.xx..
.xxxx
.x...
--- text
The
