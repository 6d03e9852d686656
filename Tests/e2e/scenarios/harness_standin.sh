# Self-test of the daemon-scenario plumbing with tools/standin_daemon.py in place of the daemon
# (it tests the harness, not tap-uinput): start_daemon, the TapUinput* evdev node read from
# the start, scripted taps turned into keys, held keys empty at the end, the mode writes the TAP
# saw (controller on start, text mode on SIGTERM). A daemon scenario has the same shape; see
# README.md "Adding a daemon scenario".
. "$E2E/lib/scenario.sh"
TAP_UINPUT_BIN=$E2E/tools/standin_daemon.py

start_daemon
start_reader keys.txt --count 8 --time
tap_play harness_standin.tap
wait_reader keys.txt
tap_wait_done 20
expect_eq "$(cut -d" " -f2- keys.txt)" "KEY_A 1
KEY_A 0
KEY_E 1
KEY_E 0
KEY_I 1
KEY_I 0
KEY_SPACE 1
KEY_SPACE 0" "scripted taps came out of the TapUinput node"
expect_eq "$(evdev_tool held)" "" "no key held"
# Notification -> key press latency (reported, not asserted: the stand-in is python under TCG).
"$PY" "$TOOLS/latency.py" --events "$TAP_EVENTS" --since "$SCENARIO_T0" --keys keys.txt | tee latency.txt
wait_write nus_rx 030c0001 5
stop_daemon
wait_write nus_rx 030c0000 10
expect_eq "$DAEMON_RC" 0 "the stand-in exited cleanly on SIGTERM"
