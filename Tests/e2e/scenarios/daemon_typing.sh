# tap-uinput end to end with the built-in TapCode keymap: notifications from the bonded virtual
# TAP through the real bluetoothd become a sentence with a capital, digits and punctuation on the
# real "TapUinput keyboard" node, mouse packets become REL motion on "TapUinput pointer" (a packet
# flagged not-real is dropped), nothing stays held; the TAP got controller mode, its periodic
# refresh, and text mode when the daemon got SIGTERM.
. "$E2E/lib/scenario.sh"
start_daemon --log-level debug --mode-refresh 2
start_reader events.txt --min-devices 2 --count 18 --timeout 120
tap_play daemon_typing.tap
wait_reader events.txt
tap_wait_done 30

expect_eq "$(grep '^KEY_' events.txt)" "KEY_LEFTSHIFT 1
KEY_H 1
KEY_H 0
KEY_LEFTSHIFT 0
KEY_I 1
KEY_I 0
KEY_SPACE 1
KEY_SPACE 0
KEY_4 1
KEY_4 0
KEY_2 1
KEY_2 0
KEY_DOT 1
KEY_DOT 0" "'Hi 42.' typed in TapCode arrived as these key events"

# Two real packets (+10, -10) and one flagged not-real in between: exactly two REL_X > 0 and
# two REL_Y < 0 (the acceleration curve decides the size, not this test).
rel_x=$(awk '$1=="REL_X" && $2>0' events.txt | wc -l)
rel_y=$(awk '$1=="REL_Y" && $2<0' events.txt | wc -l)
expect_eq "$rel_x $rel_y" "2 2" "two real mouse packets moved the pointer right and up"
expect_eq "$(evdev_tool held)" "" "nothing held after typing"

# Controller mode on connect, then refreshed every 2 s (--mode-refresh 2): three writes within 15 s.
tapctl wait-event --since "$SCENARIO_T0" --event write --char nus_rx --hex 030c0001 --count 3 --timeout 15 \
  > /dev/null || fail "controller mode was not written and refreshed (3 writes of 030c0001)"
step "ok: controller mode written and refreshed"

stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
wait_write nus_rx 030c0000 10
