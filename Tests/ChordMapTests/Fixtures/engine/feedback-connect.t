# A device that connects gets one longer pulse (the built-in keymap keeps it on), each device
# its own; connect = false under [feedback] turns it off (feedback-off.t).
--- script
connect
device right
connect
--- output
@0ms
vibrate 150
@1000ms
vibrate 150
