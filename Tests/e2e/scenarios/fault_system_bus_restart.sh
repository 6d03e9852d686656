# The system dbus-daemon is killed (SIGKILL; bluetoothd loses its bus and exits with it) while a
# button is held. The daemon's system-bus connection drops: it releases everything and
# reconnects with backoff. dbus-daemon and bluetoothd are started again as lib/guest-setup.sh
# does; the TAP types again without restarting tap-uinput. The session bus (control interface)
# is a different dbus-daemon and stays up.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
write_hold_keymap
start_daemon --log-level debug --keymap "$OUT/keymap.toml" --mode-refresh 2
wait_mode_since "$SCENARIO_T0" 60
hold_button

bus=$(ps -eo pid=,args= | awk '$2 ~ /dbus-daemon$/ && $3 == "--system" {print $1}')
[ -n "$bus" ] || fail "no system dbus-daemon found"
btd=$(pidof bluetoothd) || fail "bluetoothd is not running"
start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 30
t_kill=$(now); T_FAULT=$t_kill
step "SIGKILL the system dbus-daemon (pid $bus)"
kill -KILL "$bus"
expect_released up.txt "the system bus going away"
wait_log "system bus connection lost" 10
kill -0 "$DAEMON_PID" || fail "the daemon died with the system bus"
# bluetoothd exits when it loses the bus; make sure, so the restart below is the only one.
for _ in $(seq 50); do kill -0 "$btd" 2>/dev/null || break; sleep 0.1; done
kill -0 "$btd" 2>/dev/null && { step "bluetoothd survived the bus; stopping it"; kill -TERM "$btd"; wait_gone "$btd" 10; }
sleep 2                              # the daemon retries (0.5 s, 1 s, ...) against no bus
grep -q "system bus unavailable" "$OUT/daemon.log" || fail "the daemon did not retry the bus while it was down"
step "ok: the daemon retried while the bus was down: $(grep -c "system bus unavailable" "$OUT/daemon.log") attempts"

rm -f /run/dbus/system_bus_socket
setsid dbus-daemon --system --fork --nopidfile || fail "could not restart the system dbus-daemon"
step "system dbus-daemon restarted"
restart_bluetoothd
tapctl advertise > /dev/null
wait_reconnected_mode "$T_FAULT" 90
types_again after-bus-restart
kill -0 "$DAEMON_PID" || fail "the daemon is not running any more"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
