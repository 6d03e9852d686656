# A one-shot Shift is used by the next key even if that key is a multi-tap double (Shift+. = ">").
--- script
xxx..
xxxxx +100ms
xxxxx
--- output
@1100ms
KEY_LEFTSHIFT 1
KEY_DOT 1
KEY_DOT 0
KEY_LEFTSHIFT 0
