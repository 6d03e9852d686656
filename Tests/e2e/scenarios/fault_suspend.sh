# logind announces suspend (PrepareForSleep(true)) while the daemon holds the left button: the
# daemon releases everything, so no key is down when the machine resumes into another window.
# The same signal from any other peer on the system bus is ignored (the daemon matches on the
# sender org.freedesktop.login1, which dbus-daemon resolves to its current owner). The guest has
# no logind: tools/fake_logind.py owns the name on the real system bus and emits the signal.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
FIFO=/tmp/$SCENARIO.logind.in   # not in $OUT: 9p has no fifos
rm -f "$FIFO"; mkfifo "$FIFO"
"$PY" "$TOOLS/fake_logind.py" < "$FIFO" > logind.out 2> logind.err &
LOGIND=$!
exec 3> "$FIFO"
for _ in $(seq 150); do grep -q '^ready' logind.out && break; sleep 0.1; done
grep -q '^ready' logind.out || fail "fake logind did not start: $(cat logind.err)"
step "fake logind: $(cat logind.out)"
send() {  # send WHO true|false, wait for its acknowledgement
  local n; n=$(grep -c '^sent' logind.out || true)
  echo "$1 $2" >&3
  for _ in $(seq 100); do [ "$(grep -c '^sent' logind.out || true)" -gt "$n" ] && return 0; sleep 0.1; done
  fail "fake logind did not send $1 $2: $(cat logind.err)"
}

write_hold_keymap
start_daemon --log-level debug --keymap "$OUT/keymap.toml"
wait_mode_since "$SCENARIO_T0" 60
hold_button

start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 30
step "an impostor emits PrepareForSleep(true)"
send impostor true
sleep 1.5
expect_eq "$(evdev_tool held)" "BTN_LEFT" "the look-alike signal from another sender changed nothing"
grep -q "reason=suspend" "$OUT/daemon.log" && fail "the daemon acted on the impostor's signal: $(grep suspend "$OUT/daemon.log")"

step "logind emits PrepareForSleep(true)"
send sleep true
expect_released up.txt "PrepareForSleep(true)"
wait_log "reason=suspend" 5
send sleep false
types_again after-resume
echo quit >&3
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
