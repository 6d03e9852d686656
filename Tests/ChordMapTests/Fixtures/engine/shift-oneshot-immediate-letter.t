# A one-shot Shift before a letter with no multi-tap binding: Shift+N typed at once when N arrives.
--- script
xxx.. +100ms
xx...
xx...
--- output
@100ms
KEY_LEFTSHIFT 1
KEY_N 1
KEY_N 0
KEY_LEFTSHIFT 0
@1100ms
KEY_N 1
KEY_N 0
