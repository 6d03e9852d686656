# tap-uinput doctor against the real bluetoothd, the bonded virtual TAP, uinput and the running
# daemon on the session bus: a working chain reads ok link by link (the TAP held by the daemon
# in controller mode); then each link is broken in turn (adapter off, a broken keymap,
# bluetoothd gone) and doctor names it, with the fix, and exits 1. (No systemd user manager in
# this guest: the unit's states are checked in the unit tests.)
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
start_daemon --log-level debug --mode-refresh 2
wait_mode_since "$SCENARIO_T0" 60

# doctor_check NAME STATUS TEXT: the last run's finding for check NAME has STATUS and mentions TEXT
# (in its detail or fix).
doctor() { XDG_CONFIG_HOME="$OUT/config" "$TAP_UINPUT_BIN" doctor --json > "$OUT/doctor-$1.json" || true; }
doctor_check() {
  "$PY" - "$OUT/doctor-$1.json" "$2" "$3" "$4" <<'PY' || fail "doctor ($1): no $3 finding for $2 mentioning '$4': $(cat "$OUT/doctor-$1.json")"
import json, sys
findings, check, status, text = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
sys.exit(0 if any(f["check"].startswith(check) and f["status"] == status
                  and text in (f["detail"] + (f.get("fix") or "")) for f in findings) else 1)
PY
  step "ok: doctor ($1): $2 $3 ($4)"
}
mkdir -p "$OUT/config/tapuinput"

doctor working
doctor_check working uinput ok "writable"
doctor_check working bluetoothd ok "running"
doctor_check working adapter ok "powered"
doctor_check working "device $TAP_ADDR" ok "ready in controller mode"
doctor_check working service ok "is running"
doctor_check working keymap ok "TapCode"

# Each fault is undone as fault_* undo theirs: the TAP connected again and in controller mode,
# so the scenarios after this one find it as they expect.
t_fault=$(now)
bluetoothctl power off | tail -n 1
doctor adapter-off
doctor_check adapter-off adapter problem "bluetoothctl power on"
bluetoothctl power on | tail -n 1
wait_log "adapter powered on" 10
tapctl advertise > /dev/null
wait_reconnected_mode "$t_fault" 90

printf '[layers.base]\n"x...." = "entr"\n' > "$OUT/config/tapuinput/keymap.toml"
doctor keymap
doctor_check keymap keymap problem "keymap.toml:2:11"
rm "$OUT/config/tapuinput/keymap.toml"

old=$(pidof bluetoothd) || fail "bluetoothd is not running"
t_fault=$(now)
kill -KILL "$old"
wait_gone "$old" 10
doctor no-bluetoothd
doctor_check no-bluetoothd bluetoothd problem "systemctl enable --now bluetooth"
"$TAP_UINPUT_BIN" doctor > /dev/null 2>&1 && fail "doctor exited 0 with bluetoothd gone"
step "ok: doctor exits non-zero when a link is broken"
restart_bluetoothd
tapctl advertise > /dev/null        # if the kernel dropped the link with bluetoothd
wait_reconnected_mode "$t_fault" 90
stop_daemon
