# Helpers shared by the fault_* and priv_* scenarios (source after lib/scenario.sh).

# A keymap that can hold a button and a key across events: pinky = drag lock (left button held
# until drag-lock again), a TapXR fist (hand state 105, three samples on `air`) = Z held while
# the hand stays closed. Everything else is the built-in TapCode layout.
write_hold_keymap() {
  cat > "${1:-$OUT/keymap.toml}" <<'TOML'
extends = "builtin"
[layers.base]
"....x" = "drag-lock"
[gestures]
hand-fist = "z"
TOML
}

# wait_mode_since T [TIMEOUT]: the daemon (through BlueZ) wrote controller mode after T.
wait_mode_since() {
  tapctl wait-event --since "$1" --event write --char nus_rx --hex 030c0001 --timeout "${2:-60}" \
    > /dev/null || fail "no controller-mode write (030c0001) after t=$1 within ${2:-60}s"
  step "ok: controller mode written after t=$1"
}

# hold_button: pinky (drag lock) on a connected, moded TAP -> BTN_LEFT held in the kernel.
hold_button() {
  start_reader hold.txt --min-devices 2 --count 1 --no-repeat --timeout 30
  tapctl notify tap 10000000 > /dev/null
  wait_reader hold.txt
  expect_eq "$(cat hold.txt)" "BTN_LEFT 1" "drag lock pressed the left button"
  expect_eq "$(evdev_tool held)" "BTN_LEFT" "the kernel holds the left button"
}

# expect_released FILE WHAT: a reader started before the fault saw BTN_LEFT 0, nothing is held.
expect_released() {
  wait_reader "$1"
  expect_eq "$(sort "$1")" "BTN_LEFT 0" "$2 released the left button"
  expect_eq "$(evdev_tool held)" "" "nothing held after $2"
}

# types_again NAME: an index tap types exactly "e" (the built-in index binding waits its
# 300 ms double-tap window; nothing latched from before the fault may add Shift).
types_again() {
  start_reader "$1.txt" --min-devices 2 --count 2 --no-repeat --timeout 30
  tapctl notify tap 02000000 > /dev/null
  wait_reader "$1.txt"
  expect_eq "$(cat "$1.txt")" "KEY_E 1
KEY_E 0" "the TAP types again ($1)"
  expect_eq "$(evdev_tool held)" "" "nothing held after typing ($1)"
}

bluez_owned() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.NameHasOwner string:org.bluez 2>/dev/null | grep -q 'boolean true'
}

# restart_bluetoothd: as lib/guest-setup.sh starts it, in its own session so the runner's
# clean-up of this scenario's session leaves it running for the next scenarios.
restart_bluetoothd() {
  local args=(-n -E)
  [ "${E2E_DEBUG:-0}" = 1 ] && args+=(-d)
  echo "=== restarted by $SCENARIO at $(now)" >> "$E2E_OUT/bluetoothd.log"
  setsid /usr/libexec/bluetooth/bluetoothd "${args[@]}" >> "$E2E_OUT/bluetoothd.log" 2>&1 < /dev/null &
  local i
  for i in $(seq 200); do bluez_owned && { step "bluetoothd back (pid $(pidof bluetoothd))"; return 0; }; sleep 0.1; done
  fail "bluetoothd did not come back on the system bus"
}

# wait_gone PID [S]: the process has exited.
wait_gone() {
  local i
  for i in $(seq $(( ${2:-10} * 10 ))); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  fail "process $1 still running after ${2:-10}s"
}

# wait_log PATTERN [S]: the daemon logged PATTERN (grep -E).
wait_log() {
  local i
  for i in $(seq $(( ${2:-10} * 10 ))); do grep -Eq "$1" "$OUT/daemon.log" && { step "ok: daemon logged /$1/"; return 0; }; sleep 0.1; done
  fail "the daemon did not log /$1/ within ${2:-10}s"
}

# wait_reconnected_mode T_BEFORE_FAULT [TIMEOUT]: the TAP's link dropped after T_BEFORE_FAULT, the
# TAP was connected again after that, and the daemon wrote controller mode on the new connection
# (a write after the `connected` event: neither a refresh on the old link nor a write from
# before the fault counts).
wait_reconnected_mode() {
  local rec t_disc t_conn
  rec=$(tapctl wait-event --since "$1" --event disconnected --timeout 30) \
    || fail "the TAP's link did not drop after t=$1"
  t_disc=$(echo "$rec" | tail -n 1 | sed 's/.*"t": \([0-9.]*\).*/\1/')
  rec=$(tapctl wait-event --since "$t_disc" --event connected --timeout "${2:-90}") \
    || fail "the TAP was not connected again after t=$t_disc within ${2:-90}s"
  t_conn=$(echo "$rec" | tail -n 1 | sed 's/.*"t": \([0-9.]*\).*/\1/')
  step "ok: link dropped at t=$t_disc, connected again at t=$t_conn"
  wait_mode_since "$t_conn" 30
}
