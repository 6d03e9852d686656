# e2e-timeout: 300
# Two virtual TAPs as one keyboard through the real bluetoothd and uinput: TAP 2 (Tap_E2E0002,
# silent until now) is paired with `tap-uinput pair --role right`, which records the role in
# hands.conf; the keymap's [hands] names TAP 1 (Tap_E2E0001, by its Bluetooth name) as the left
# hand. `status` and `devices` report both roles. One script on TAP 1 drives both hands with
# exact relative timing (`@2` lines): one-hand chords from each hand, a thumb alone (it waits
# for the other hand, then types on its own), two two-hand chords. Then the left hand locks the
# left button (drag lock) and drops its link: the button is released (EVIOCGKEY empty) and the
# right hand keeps typing. TAP 2 is unpaired and silenced at the end, so later scenarios see one TAP.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
need_daemon
TAP2=F0:E2:E0:00:00:02
export XDG_CONFIG_HOME=$OUT/config
mkdir -p "$XDG_CONFIG_HOME/tapuinput"
# combo-window-ms: 200 rather than the default 60, so the jitter of two links under TCG cannot
# split a two-hand chord (the script taps the two hands 20 ms apart).
cat > "$XDG_CONFIG_HOME/tapuinput/keymap.toml" <<'TOML'
name = "two-hands"
[options]
combo-window-ms = 200
[hands]
left = "Tap_E2E0001"
[layers.base]
"x...." = "a"
".x..." = "b"
"..x.." = "drag-lock"
"...x." = "c"
"....x" = "d"
"....x|x...." = "space"
"...x.|.x..." = "enter"
TOML

# TAP 2 is silenced and unpaired by the runner after the scenario (lib/guest-setup.sh: after
# any scenario that woke it).

step "TAP 2 advertises; tap-uinput pair --role right pairs it"
tapctl --tap 2 advertise > /dev/null
"$TAP_UINPUT_BIN" pair --address "$TAP2" --role right --timeout 90 | tee pair.txt
grep -q "Tap_E2E0002 is the right hand" pair.txt || fail "pair --role did not record the role: $(cat pair.txt)"
expect_eq "$(grep -v '^#' "$XDG_CONFIG_HOME/tapuinput/hands.conf")" "$TAP2 right" "hands.conf holds TAP 2's role"

start_daemon --log-level debug
t_start=$(now)
wait_write nus_rx 030c0001 90   # TAP 1
tapctl --tap 2 wait-event --since "$SCENARIO_T0" --event write --char nus_rx --hex 030c0001 --timeout 90 > /dev/null \
  || fail "TAP 2 got no controller mode"
step "ok: both TAPs in controller mode $(awk -v a="$t_start" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}') s after the start"

# The connected devices' roles from `status --json`, as "NAME=ROLE ..." sorted by name.
roles_of() {
  "$PY" - "$1" <<'PYTHON'
import json, sys
devices = json.load(open(sys.argv[1]))["devices"]
print(" ".join(f"{d['name']}={d['role'] or '-'}" for d in sorted(devices, key=lambda d: d["name"]) if d["connected"]))
PYTHON
}
roles=
deadline=$(( $(cut -d. -f1 /proc/uptime) + 30 ))
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$deadline" ]; do
  "$TAP_UINPUT_BIN" status --json > status.json || fail "tap-uinput status --json failed"
  roles=$(roles_of status.json)
  [ "$roles" = "Tap_E2E0001=left Tap_E2E0002=right" ] && break
  sleep 0.5
done
expect_eq "$roles" "Tap_E2E0001=left Tap_E2E0002=right" "status --json: TAP 1 the left hand (keymap [hands]), TAP 2 the right (pair --role)"
"$TAP_UINPUT_BIN" status > status.txt
grep -q "left hand" status.txt && grep -q "right hand" status.txt || fail "status text without the roles: $(cat status.txt)"
"$TAP_UINPUT_BIN" devices --timeout 10 > devices.txt
grep -q "^$TAP_ADDR .*left" devices.txt && grep -q "^$TAP2 .*right" devices.txt \
  || fail "devices does not show the roles: $(cat devices.txt)"
step "ok: status and devices show the roles"

start_reader typed.txt --min-devices 2 --count 11 --no-repeat --timeout 60
tap_play two_hands.tap
wait_reader typed.txt
tap_wait_done 30 > /dev/null
expect_eq "$(cat typed.txt)" "KEY_C 1
KEY_C 0
KEY_D 1
KEY_D 0
KEY_A 1
KEY_A 0
KEY_SPACE 1
KEY_SPACE 0
KEY_ENTER 1
KEY_ENTER 0
BTN_LEFT 1" "left ring c, right pinky d, a thumb alone a, both thumbs space, both index fingers enter, then the left hand's drag lock"
expect_eq "$(evdev_tool held)" "BTN_LEFT" "the kernel holds the left button"
n=$(tapctl --tap 2 events --since "$SCENARIO_T0" --event notify --char tap | grep -c '"delivered": true' || true)
expect_eq "$n" 3 "TAP 2 delivered its three taps"

step "the left hand drops its link while the drag lock holds the button"
start_reader after.txt --min-devices 2 --count 5 --no-repeat --timeout 60
tap_play two_hands_drop.tap
wait_reader after.txt
tap_wait_done 30 > /dev/null
expect_eq "$(cat after.txt)" "BTN_LEFT 0
KEY_C 1
KEY_C 0
KEY_A 1
KEY_A 0" "the disconnect released the button; the right hand still types c and its thumb alone a"
expect_eq "$(evdev_tool held)" "" "nothing held"
wait_log "disconnected: $TAP_ADDR"
wait_log "device=$TAP_ADDR.*release device"   # the scoped release (EngineDriver.disconnect)
if grep -q "release all" "$OUT/daemon.log"; then fail "the daemon released everything: $(grep 'release all' "$OUT/daemon.log")"; fi
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
