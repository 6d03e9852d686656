# A text action types a string on the US layout; the simulator shows the typed result.
--- keymap
[layers.base]
"x...." = { text = "Hello, World! (1+1=2)\n" }
".x..." = "backspace"
--- script
x....
.x...
--- text
Hello, World! (1+1=2)
