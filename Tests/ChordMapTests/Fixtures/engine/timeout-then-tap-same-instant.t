# A tap arriving at the same instant as the pending deadline: the timeout fires first, then the tap starts anew.
--- script
xxxxx +300ms
xx...
--- output
@300ms
KEY_SPACE 1
KEY_SPACE 0
KEY_N 1
KEY_N 0
