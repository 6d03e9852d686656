# Shift lock types capitals until a single Shift.
--- script
xxx.. +100ms
xxx..
xx...
x....
xxx..
xx...
--- text
NAn
