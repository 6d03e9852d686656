# The worked example from docs/keymaps.md (config/example-browser.toml, abridged): Switch x2 opens
# the web layer; letters still fall through to the TapCode base layer.
--- keymap
extends = "builtin"          # or a path, relative to this file: extends = "default.toml"
name = "browser"

# Which windows / devices this keymap is meant for (used by the daemon's per-application switching).
[match]
apps = ["firefox", "org.mozilla.firefox", "chromium"]

[options]
multi-tap-window-ms = 280

[mouse]
sensitivity = 1.5
acceleration = 0.8
natural-scroll = true

[gestures]
pinch = "click"
up-one-finger = "wheel-up"
down-one-finger = "wheel-down"

# Only the chords listed here change; the rest come from the built-in layout.
[layers.base]
# Switch (middle+ring+pinky): tap for numbers as usual, double for the browser layer.
"..xxx" = { tap = "toggle(numbers)", double = "toggle(web)" }

[layers.web]
"x...." = "click"
".x..." = "right-click"
"..x.." = "middle-click"
"xx..." = "double-click"
"x.x.." = "drag-lock"
".xx.." = "toggle-scroll"
"...x." = "ctrl+t"                    # new tab
"....x" = "ctrl+w"                    # close tab
"...xx" = "ctrl+shift+t"              # reopen closed tab
".x.x." = "alt+left"                  # back
"..x.x" = "alt+right"                 # forward
"x..x." = ["ctrl+l", "ctrl+c"]        # copy the address
"xxxx." = "ctrl+tab"
".xxxx" = "ctrl+shift+tab"
"xxxxx" = { tap = "space", double = "vibrate(60)" }
"..xxx" = "toggle(web)"               # Switch leaves the layer
[feedback]
haptics = false   # this fixture is about something else; pulses have their own
--- script
..xxx +100ms
..xxx
...x.
x..x.
xx...
.xx.. +10ms
mouse 0 -30 +10ms
.xx..
..xxx
...x.
--- output
@100ms
layer web
@1100ms
KEY_LEFTCTRL 1
KEY_T 1
KEY_T 0
KEY_LEFTCTRL 0
@2100ms
KEY_LEFTCTRL 1
KEY_L 1
KEY_L 0
KEY_LEFTCTRL 0
KEY_LEFTCTRL 1
KEY_C 1
KEY_C 0
KEY_LEFTCTRL 0
@3100ms
BTN_LEFT 1
BTN_LEFT 0
BTN_LEFT 1
BTN_LEFT 0
@4110ms
REL_WHEEL_HI_RES -60
@5120ms
layer base
@6400ms
KEY_O 1
KEY_O 0
