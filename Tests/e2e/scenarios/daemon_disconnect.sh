# A TAP that disconnects while the daemon holds a mouse button (drag lock) and has Shift latched:
# the daemon releases everything at once, so the kernel reports nothing held afterwards.
. "$E2E/lib/scenario.sh"
cat > keymap.toml <<'TOML'
extends = "builtin"
[layers.base]
"....x" = "drag-lock"
TOML
start_daemon --log-level debug --keymap "$OUT/keymap.toml"
start_reader down.txt --min-devices 2 --count 1 --timeout 90
tap_play daemon_disconnect.tap
wait_reader down.txt
expect_eq "$(cat down.txt)" "BTN_LEFT 1" "drag lock pressed the left button"
tap_wait_done 30
expect_eq "$(evdev_tool held)" "BTN_LEFT" "the kernel holds the left button"

start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 60
step "the TAP drops the link"
tapctl disconnect > /dev/null
wait_reader up.txt
expect_eq "$(cat up.txt)" "BTN_LEFT 0" "the disconnect released the button"
expect_eq "$(evdev_tool held)" "" "nothing held after the disconnect"
grep -q "disconnected" "$OUT/daemon.log" || fail "the daemon did not log the disconnect"

# The TAP comes back (advertises again): the daemon reconnects by itself, puts it back in
# controller mode, and it types again. (Also leaves the link steady before the daemon stops:
# bluetoothd 5.66 can crash when a link is dropped while a connect is pending.)
since=$(now)
tapctl advertise > /dev/null
tapctl wait-event --since "$since" --event write --char nus_rx --hex 030c0001 --timeout 60 > /dev/null \
  || fail "controller mode was not re-applied after the TAP came back"
step "ok: reconnected, controller mode re-applied"
start_reader again.txt --min-devices 2 --count 2 --timeout 60
tapctl notify tap 08000000 > /dev/null     # ring: "o" (double "q": waits its window)
wait_reader again.txt
expect_eq "$(cat again.txt)" "KEY_O 1
KEY_O 0" "the TAP types again after reconnecting"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
