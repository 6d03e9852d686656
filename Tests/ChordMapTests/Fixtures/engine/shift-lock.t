# Double Shift locks Shift (resolved at once: Shift has no triple); a single Shift unlocks. Shows the default pulses: one short buzz when Shift locks, two when it unlocks.
--- script
xxx.. +100ms
xxx..
xx...
xx...
xxx..
xx...
--- output
@100ms
vibrate 60
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
@3400ms
vibrate 30 60 30
@4100ms
KEY_N 1
KEY_N 0
