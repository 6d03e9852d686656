# run is allowed when the keymap sets allow-commands; argv is passed without a shell.
--- keymap
[options]
allow-commands = true
[layers.base]
"x...." = { run = ["notify-send", "hello world"] }
--- script
x....
--- output
@0ms
run notify-send hello world
