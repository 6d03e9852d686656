# Default mouse settings: 1 px per velocity unit below the acceleration threshold (10).
--- script
mouse 3 -2 +10ms
mouse 0 5 +10ms
--- output
@0ms
REL_X 3
REL_Y -2
@10ms
REL_Y 5
