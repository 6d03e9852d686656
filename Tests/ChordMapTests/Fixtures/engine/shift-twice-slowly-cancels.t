# Shift tapped twice outside the window arms and then disarms the one-shot.
--- script
xxx..
xxx..
xx...
--- output
@2000ms
KEY_N 1
KEY_N 0
