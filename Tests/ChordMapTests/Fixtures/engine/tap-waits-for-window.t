# "a" has double/triple bindings, so it waits for the 300 ms window before typing.
--- script
x....
--- output
@300ms
KEY_A 1
KEY_A 0
