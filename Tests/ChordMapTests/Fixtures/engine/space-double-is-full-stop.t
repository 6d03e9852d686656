# Space waits (double = "."); two quick Spaces give a full stop at once.
--- script
xxxxx
xxxxx +100ms
xxxxx
--- output
@300ms
KEY_SPACE 1
KEY_SPACE 0
@1100ms
KEY_DOT 1
KEY_DOT 0
