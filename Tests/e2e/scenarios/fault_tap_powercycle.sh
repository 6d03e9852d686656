# The TAP falls back to Text mode (1) on the same link, as its firmware does when the mode is
# not refreshed, and (2) after a reboot: the link is lost with a supervision timeout, it comes
# back advertising and has forgotten its mode (the virtual TAP's `forget-mode` and `powercycle`).
# Both times the daemon writes controller mode again and the TAP types; a button held when the
# TAP rebooted is released.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
write_hold_keymap
start_daemon --log-level debug --keymap "$OUT/keymap.toml" --mode-refresh 2
wait_mode_since "$SCENARIO_T0" 60

t_forget=$(now)
tapctl forget-mode > /dev/null
step "the TAP fell back to Text mode on the same link"
t_forgot=$(tapctl events --since "$t_forget" --event mode_forgotten | tail -n 1 | sed 's/.*"t": \([0-9.]*\).*/\1/')
[ -n "$t_forgot" ] || fail "the virtual TAP did not log mode_forgotten"
wait_mode_since "$t_forgot" 6          # --mode-refresh 2: the next refresh puts it back
tapctl status | grep -q '"mode": true' || fail "the TAP is not in controller mode again"
types_again after-forget

hold_button
start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 30
t_cycle=$(now); T_FAULT=$t_cycle
tapctl powercycle 1500 > /dev/null
step "the TAP power-cycles"
tapctl wait-event --since "$t_cycle" --event disconnected --timeout 10 > /dev/null \
  || fail "the link did not drop"
expect_released up.txt "the TAP's reboot"
tapctl wait-event --since "$t_cycle" --event advertising --timeout 10 > /dev/null \
  || fail "the TAP did not advertise again"
wait_reconnected_mode "$T_FAULT" 90
types_again after-powercycle
n=$(tapctl events --since "$t_cycle" --event connected | wc -l)
[ "$n" -ge 1 ] || fail "no new connection after the power cycle"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
