# "i" has only a double ("j"): the second tap resolves it immediately.
--- script
..x.. +100ms
..x..
--- output
@100ms
KEY_J 1
KEY_J 0
