# Guest-side set-up and scenario runner, sourced by lib/guest-main.sh (bash, inside the VM).

TAP_CTL=/run/e2e/tap.sock
TAP_EVENTS=$OUT/tap-events.jsonl
export TAP_CTL TAP_EVENTS
PY=$E2E/lib/py

uptime_s() { cut -d' ' -f1 /proc/uptime; }
log() { echo "[$(uptime_s)] e2e: $*"; }

wait_until() { # wait_until SECONDS WHAT COMMAND...
  local limit=$1 what=$2; shift 2
  local end=$(( $(date +%s) + limit ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$end" ]; then log "timed out after ${limit}s waiting for $what"; return 1; fi
    sleep 0.1
  done
}

bluez_up() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.NameHasOwner string:org.bluez | grep -q 'boolean true'
}

tap_ready() { grep -q '"event": "ready"' "$TAP_EVENTS"; }
# events_since FILE T: the lines of a virtual TAP's event log stamped at or after T.
events_since() {
  awk -v t="$2" '{ if (match($0, /"t": [0-9.]+/)) { v = substr($0, RSTART+5, RLENGTH-5); if (v+0 >= t-0.01) print } }' "$1"
}

# Starts bluetoothd (appending to its log) and waits for org.bluez. In the systemd guest it is
# the distribution's unit (its log is in the journal).
start_bluetoothd() {
  if [ "${E2E_VM:-}" = systemd ]; then
    systemctl restart bluetooth.service
  else
    local btd_args=(-n -E)
    [ "${E2E_DEBUG:-0}" = 1 ] && btd_args+=(-d)
    /usr/libexec/bluetooth/bluetoothd "${btd_args[@]}" >> "$OUT/bluetoothd.log" 2>&1 &
  fi
  wait_until 20 "org.bluez on the system bus" bluez_up
}

# The systemd guest (E2E_VM=systemd): udevd, the system bus and logind are units already; bluetoothd
# is started by udev (hci0 -> bluetooth.target) once the virtual TAP exists. No harness rules in
# /etc/udev: the scenario installs the package's.
systemd_guest_setup() {
  log "systemd $(systemctl --version | head -n1 | cut -d' ' -f2) is PID 1; state $(systemctl is-system-running)"
  wait_until 90 "the virtual TAP" tap_ready || { tail -n 20 "$OUT/virtual_tap.log"; return 1; }
  wait_until 10 "hci0" test -e /sys/class/bluetooth/hci0 || return 1
  # udev's 99-systemd.rules pull in bluetooth.target for hci0; this only waits for it.
  wait_until 30 "bluetooth.service started through bluetooth.target" systemctl is-active bluetooth.service \
    || systemctl start bluetooth.service
  wait_until 20 "org.bluez on the system bus" bluez_up || return 1
  log "bluetoothd $(/usr/libexec/bluetooth/bluetoothd -v) owns org.bluez ($(systemctl show -P ActiveEnterTimestampMonotonic bluetooth.service) us)"
}

e2e_setup() {
  log "set-up starts (kernel $(uname -r))"
  modprobe -a uinput evdev uhid hid-generic bluetooth hci_vhci || { log "modprobe failed"; return 1; }
  [ -c /dev/uinput ] && [ -c /dev/vhci ] || { log "/dev/uinput or /dev/vhci missing"; return 1; }

  # The virtual TAP first: importing bumble takes several seconds under TCG, so it starts while
  # udev, D-Bus and bluetoothd come up (bluetoothd picks up hci0 whenever it appears).
  mkdir -p /run/dbus /run/e2e /run/user/0
  chmod 700 /run/user/0
  : > "$TAP_EVENTS"
  local tap_args=(--ctl "$TAP_CTL" --events "$TAP_EVENTS")
  [ "${E2E_DEBUG:-0}" = 1 ] && tap_args+=(--debug)
  # E2E_TAP_ARGS: extra virtual_tap.py options for this VM (e.g. "--v2 --fw-rev 3.0.1").
  read -r -a extra <<<"${E2E_TAP_ARGS:-}"
  tap_args+=("${extra[@]}")
  # The systemd guest's TAP offers HID over GATT like a real one: BlueZ's HoG plugin then makes
  # the input device the package's udev rule starts the user unit for.
  [ "${E2E_VM:-}" = systemd ] && tap_args+=(--hid)
  setsid "$PY" "$E2E/virtual_tap.py" "${tap_args[@]}" > "$OUT/virtual_tap.log" 2>&1 &
  TAP_PID=$!

  if [ "${E2E_VM:-}" = systemd ]; then
    systemd_guest_setup || return 1
  elif [ "${E2E_UDEV:-1}" = 1 ] && [ -x /lib/systemd/systemd-udevd ]; then
    # The project's own rules (udev/*.rules) are installed as a package would install them.
    local rules
    for rules in "$REPO"/udev/*.rules; do
      [ -f "$rules" ] && cp "$rules" /etc/udev/rules.d/ && log "installed udev rules $(basename "$rules")"
    done
    /lib/systemd/systemd-udevd --daemon --resolve-names=never 2>>"$OUT/udevd.log"
    udevadm trigger --action=add --subsystem-match=input --subsystem-match=misc \
      --subsystem-match=bluetooth 2>/dev/null
    udevadm settle -t 10
    log "udevd running"
  fi

  if [ "${E2E_VM:-}" != systemd ]; then
    dbus-daemon --system --fork --nopidfile || { log "dbus-daemon failed"; return 1; }
    # A session bus too, for anything of the daemon's that lives there (scenarios get its address).
    DBUS_SESSION_BUS_ADDRESS=$(dbus-daemon --session --fork --nopidfile --print-address=1 \
      --address=unix:path=/run/user/0/bus) || { log "session dbus-daemon failed"; return 1; }
    export DBUS_SESSION_BUS_ADDRESS
    start_bluetoothd || return 1
    log "bluetoothd $(/usr/libexec/bluetooth/bluetoothd -v) owns org.bluez"
    # (The systemd guest waited for these before bluetoothd.)
    wait_until 90 "the virtual TAP" tap_ready || { tail -n 20 "$OUT/virtual_tap.log"; return 1; }
    wait_until 10 "hci0" test -e /sys/class/bluetooth/hci0 || return 1
  fi
  log "virtual TAP up (pid $TAP_PID): $(grep -m1 '"ready"' "$TAP_EVENTS")"

  TAP_ADDR=$("$PY" "$E2E/tools/pair.py" --timeout 60) || { log "pairing failed"; return 1; }
  export TAP_ADDR
  log "paired and trusted $TAP_ADDR"
}

e2e_teardown() {
  "$PY" "$E2E/tools/tapctl.py" quit >/dev/null 2>&1
  sleep 0.2
}

# The daemon binary built on the host, if any (newest of debug and release).
daemon_bin() {
  if [ -n "${E2E_DAEMON_BIN:-}" ]; then echo "$E2E_DAEMON_BIN"; return; fi
  local best= b
  for b in "$REPO/.build/debug/tap-uinput" "$REPO/.build/release/tap-uinput"; do
    [ -x "$b" ] || continue
    if [ -z "$best" ] || [ "$b" -nt "$best" ]; then best=$b; fi
  done
  echo "$best"
}

# A scenario's time limit: E2E_SCENARIO_TIMEOUT (default 240 s), or more if the script says
# `# e2e-timeout: SECONDS` on a line of its own (vm/launch.sh adds them up the same way).
scenario_limit() {
  local limit=${E2E_SCENARIO_TIMEOUT:-240} own
  own=$(sed -n 's/^# e2e-timeout: *\([0-9][0-9]*\) *$/\1/p' "$1" | head -n1)
  [ -n "$own" ] && [ "$own" -gt "$limit" ] && limit=$own
  echo "$limit"
}

e2e_run_scenario() {
  local name=$1 script=$E2E/scenarios/$1.sh
  local sout=$OUT/$name rc t0 t1 secs verdict why= limit
  rm -rf "$sout"; mkdir -p "$sout"
  if [ ! -f "$script" ]; then
    echo "FAIL $name 0 no such scenario: $script" >> "$OUT/results.txt"; return 1
  fi
  limit=$(scenario_limit "$script")
  log "=== scenario $name"
  t0=$(uptime_s)
  ( cd "$sout" &&
    export REPO E2E E2E_OUT OUT="$sout" SCENARIO="$name" SCENARIO_DIR="$E2E/scenarios" \
           SCENARIO_T0="$t0" TAP_ADDR TAP_CTL TAP_EVENTS \
           TAP_UINPUT_BIN="$(daemon_bin)" XDG_RUNTIME_DIR=/run/user/0 PY DBUS_SESSION_BUS_ADDRESS &&
    exec setsid bash -c 'echo $$ > "$OUT/.sid"; exec timeout -k 5 "$1" bash -e $3 "$2"' _ \
      "$limit" "$script" "$([ "${E2E_TRACE:-0}" = 1 ] && echo -x)" ) \
    > "$sout/log" 2>&1
  rc=$?
  t1=$(uptime_s)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
  # Clean up after the scenario: its processes, the TAP's script, the BlueZ connection.
  [ -s "$sout/.sid" ] && pkill -KILL -s "$(cat "$sout/.sid")" 2>/dev/null
  "$PY" "$E2E/tools/tapctl.py" reset >/dev/null 2>&1
  # TAP 2 (silent unless a scenario woke it, e.g. two_hands): if its log grew during the
  # scenario, silence and unpair it so the next scenario sees one TAP; its slice of the log
  # goes next to TAP 1's.
  local tap2_events=${TAP_EVENTS%.jsonl}2.jsonl
  [ -s "$tap2_events" ] && events_since "$tap2_events" "$t0" > "$sout/tap-events2.jsonl"
  if [ -s "$sout/tap-events2.jsonl" ]; then
    "$PY" "$E2E/tools/tapctl.py" --tap 2 silence >/dev/null 2>&1
    timeout 10 bluetoothctl remove F0:E2:E0:00:00:02 >/dev/null 2>&1
  else
    rm -f "$sout/tap-events2.jsonl"
  fi
  # bluetoothd 5.66 can crash (e.g. a link dropped while GATT operations are pending); the
  # scenario that saw it fails, and the next ones get a running bluetoothd again.
  if ! bluez_up; then
    log "bluetoothd is gone after $name: restarting it"
    [ "$rc" = 0 ] && { rc=1; why="bluetoothd died during the scenario"; }
    start_bluetoothd || log "bluetoothd did not come back"
  fi
  # bluetoothctl waits forever for a bluetoothd that is not there: always bounded.
  timeout 10 bluetoothctl disconnect "$TAP_ADDR" >/dev/null 2>&1
  # A scenario may have removed the bond (e.g. to test pairing): the next one starts bonded.
  if ! timeout 10 bluetoothctl info "$TAP_ADDR" 2>/dev/null | grep -q 'Paired: yes'; then
    log "re-pairing after $name"
    "$PY" "$E2E/tools/pair.py" --address "$TAP_ADDR" --timeout 60 >/dev/null || log "re-pairing failed"
  fi
  events_since "$TAP_EVENTS" "$t0" > "$sout/tap-events.jsonl"
  case $rc in
    0) verdict=PASS ;;
    77) verdict=SKIP; why=$(grep -m1 '^SKIP:' "$sout/log" | cut -c7-) ;;
    124|137) verdict=FAIL; why="timed out after ${limit}s" ;;
    *) verdict=FAIL; why=${why:-"exit $rc"} ;;
  esac
  echo "$verdict $name $secs $why" >> "$OUT/results.txt"
  log "=== $verdict $name (${secs}s) $why"
  if [ "$verdict" = FAIL ]; then sed 's/^/    | /' "$sout/log" | tail -n 40; fi
  [ "$verdict" != FAIL ]
}
