# Double Shift locks Shift (resolved at once: Shift has no triple); a single Shift unlocks.
--- script
xxx.. +100ms
xxx..
xx...
xx...
xxx..
xx...
--- output
@1100ms
KEY_LEFTSHIFT 1
KEY_N 1
KEY_N 0
KEY_LEFTSHIFT 0
@2100ms
KEY_LEFTSHIFT 1
KEY_N 1
KEY_N 0
KEY_LEFTSHIFT 0
@4100ms
KEY_N 1
KEY_N 0
