# The adapter is powered off (`bluetoothctl power off`, i.e. Adapter1.Powered = false through
# bluetoothd) while a button is held: the daemon releases everything. Powered on again, the
# daemon reconnects the TAP (bond kept), re-applies controller mode and it types.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
write_hold_keymap
start_daemon --log-level debug --keymap "$OUT/keymap.toml" --mode-refresh 2
wait_mode_since "$SCENARIO_T0" 60
hold_button

start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 30
t_off=$(now); T_FAULT=$t_off
step "adapter power off"
bluetoothctl power off | tail -n 1
expect_released up.txt "the adapter powering off"
wait_log "adapter powered off" 10
tapctl wait-event --since "$t_off" --event disconnected --timeout 10 > /dev/null \
  || fail "the TAP's link did not drop with the adapter"
sleep 1
step "adapter power on"
bluetoothctl power on | tail -n 1
wait_log "adapter powered on" 10
tapctl advertise > /dev/null
wait_reconnected_mode "$T_FAULT" 90
types_again after-power-on
expect_eq "$(tapctl events --since "$SCENARIO_T0" --event paired | wc -l)" 0 "the bond was kept (no new pairing)"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
