# Packets without surface contact are dropped.
--- script
mouse 5 5 unreal +10ms
mouse 1 1 +10ms
--- output
@10ms
REL_X 1
REL_Y 1
