# bluetoothd is killed (SIGKILL) while the daemon runs, the TAP is connected and the left button
# is held. The daemon sees org.bluez lose its owner and releases everything; bluetoothd is
# started again (as lib/guest-setup.sh does) and, without restarting tap-uinput, the daemon
# picks the bonded TAP up again, re-applies controller mode and types.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
write_hold_keymap
start_daemon --log-level debug --keymap "$OUT/keymap.toml" --mode-refresh 2
wait_mode_since "$SCENARIO_T0" 60
hold_button

old=$(pidof bluetoothd) || fail "bluetoothd is not running"
start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 30
t_kill=$(now); T_FAULT=$t_kill
step "SIGKILL bluetoothd (pid $old)"
kill -KILL "$old"
wait_gone "$old" 10
expect_released up.txt "bluetoothd going away"
wait_log "disconnected: .*bluetoothd went away" 10
kill -0 "$DAEMON_PID" || fail "the daemon died with bluetoothd"

restart_bluetoothd
tapctl advertise > /dev/null        # if the kernel dropped the link with bluetoothd
wait_reconnected_mode "$T_FAULT" 90
types_again after-restart
kill -0 "$DAEMON_PID" || fail "the daemon is not running any more"
expect_eq "$(tapctl events --since "$SCENARIO_T0" --event paired | wc -l)" 0 "the bond was kept (no new pairing)"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
