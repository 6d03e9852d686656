# Helpers for scenarios (Tests/e2e/scenarios/NAME.sh). Source it first:
#   . "$E2E/lib/scenario.sh"
# A scenario runs with `bash -e` inside the VM after the common set-up and pairing, in its own
# directory $OUT (= Tests/e2e/out/<run>/NAME), with the environment listed in README.md.
# Exit 0 = PASS, 77 = SKIP (print `SKIP: reason` first, or call `skip REASON`), anything else = FAIL.

PY=${PY:-$E2E/lib/py}   # python3 -S with the host's site-packages (lib/py)
TOOLS=$E2E/tools

tapctl() { "$PY" "$TOOLS/tapctl.py" "$@"; }
evdev_tool() { "$PY" "$TOOLS/evdev_tool.py" "$@"; }
now() { cut -d' ' -f1 /proc/uptime; }   # CLOCK_BOOTTIME == CLOCK_MONOTONIC here (no suspend)
step() { echo "[$(now)] $SCENARIO: $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
  if [ "$1" != "$2" ]; then
    printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$3" "$2" "$1" >&2; exit 1
  fi
  step "ok: $3"
}

# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds (polled every 0.2 s), else fail.
wait_for() {
  local limit=$1 what=$2 end; shift 2; end=$(( $(date +%s) + limit ))
  until "$@" > /dev/null 2>&1; do
    [ "$(date +%s)" -lt "$end" ] || fail "timed out after ${limit}s waiting for $what"
    sleep 0.2
  done
  step "ok: $what"
}

# Plays a virtual TAP script (path relative to the scenario's directory or absolute).
tap_play() {
  local f=$1
  case $f in /*) ;; *) f=$SCENARIO_DIR/$f ;; esac
  tapctl play "$f" >/dev/null || fail "virtual TAP refused $f"
}
tap_wait_done() { tapctl wait-done "${1:-60}" || fail "virtual TAP script did not finish: see tap-events.jsonl"; }

# wait_write CHAR HEX [TIMEOUT_S]: the central (BlueZ, on behalf of the daemon) wrote HEX to CHAR
# since the scenario started. CHAR: nus_rx, ui, air, mouse, ... or a UUID prefix.
wait_write() {
  tapctl wait-event --since "$SCENARIO_T0" --event write --char "$1" --hex "$2" --timeout "${3:-10}" \
    >/dev/null || fail "no write of $2 to $1 within ${3:-10}s"
  step "ok: saw write $2 to $1"
}

# The daemon under test.
need_daemon() {
  [ -n "${TAP_UINPUT_BIN:-}" ] && [ -x "$TAP_UINPUT_BIN" ] && return 0
  if [ "${E2E_REQUIRE_DAEMON:-0}" = 1 ]; then fail "no daemon binary (build with swift build)"; fi
  skip "no daemon binary at \$REPO/.build/{debug,release}/tap-uinput"
}

# start_daemon [ARGS...]: runs `$TAP_UINPUT_BIN run ARGS...` in the background, output in
# $OUT/daemon.log; stopped (SIGTERM, then SIGKILL after 5 s) when the scenario exits.
# stop_daemon stops it earlier and leaves its exit status in $DAEMON_RC.
start_daemon() {
  need_daemon
  case $TAP_UINPUT_BIN in
    *.py) "$PY" "$TAP_UINPUT_BIN" run "$@" > "$OUT/daemon.log" 2>&1 & ;;
    *) "$TAP_UINPUT_BIN" run "$@" > "$OUT/daemon.log" 2>&1 & ;;
  esac
  DAEMON_PID=$!
  trap stop_daemon EXIT
  step "daemon started (pid $DAEMON_PID): $TAP_UINPUT_BIN run $*"
}
stop_daemon() {
  [ -n "${DAEMON_PID:-}" ] || return 0
  if kill -0 "$DAEMON_PID" 2>/dev/null; then
    kill -TERM "$DAEMON_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$DAEMON_PID" 2>/dev/null || true
  fi
  DAEMON_RC=0
  wait "$DAEMON_PID" 2>/dev/null || DAEMON_RC=$?
  step "daemon exited with status $DAEMON_RC"
  DAEMON_PID=
  return 0
}

# start_reader FILE [evdev_tool read options...]: reads the TapUinput* node(s) in the background
# into FILE (`KEY_A 1` lines; add --time for monotonic timestamps) and returns once the node(s)
# are open, so nothing the daemon writes afterwards is missed. Default options:
# --prefix TapUinput --timeout 60. `wait_reader` waits for it (it stops after --count events or
# at its timeout) and fails if it failed.
start_reader() {
  local file=$1; shift
  : > "$file.err"
  evdev_tool read --timeout 60 "$@" > "$file" 2> "$file.err" &
  READER_PID=$!
  local i
  for i in $(seq 600); do
    grep -q '^evdev_tool: reading' "$file.err" && { step "reader: $(grep '^evdev_tool: reading' "$file.err" | tr '\n' ' ')"; return 0; }
    kill -0 "$READER_PID" 2>/dev/null || fail "evdev reader exited: $(cat "$file.err")"
    sleep 0.1
  done
  fail "no TapUinput input node appeared within 60 s"
}
wait_reader() {
  wait "$READER_PID" || fail "evdev reader failed: $(cat "$1.err" 2>/dev/null)"
}

# remove_and_purge_package: `dpkg -r` removes the installed files, then `dpkg -P` leaves nothing:
# no path of files.txt (`dpkg -L` saved before removal; directories count when they are the
# package's own, /usr/share/tapuinput but not /usr/share) and nothing named after it where
# postinst and dpkg write (a find over /usr on the 9p root takes minutes under TCG).
remove_and_purge_package() {
  dpkg -r tap-uinput > remove.txt 2>&1 || fail "dpkg -r: $(tail -5 remove.txt)"
  local f left
  for f in /usr/bin/tap-uinput /lib/udev/rules.d/70-tap-uinput.rules /usr/lib/systemd/user/tap-uinput.service; do
    [ ! -e "$f" ] || fail "$f left after dpkg -r"
  done
  step "ok: dpkg -r removed the files"
  dpkg -P tap-uinput > purge.txt 2>&1 || fail "dpkg -P: $(tail -5 purge.txt)"
  left=$( (while read -r f; do
             if [ -e "$f" ] || [ -L "$f" ]; then [ -d "$f" ] && [[ $f != *tap* ]] || echo "$f"; fi
           done < files.txt
           find /etc /var/lib/systemd /var/lib/dpkg/info -name '*tap-uinput*' 2>/dev/null) || true)
  expect_eq "$left" "" "dpkg -P left nothing of the package behind ($(wc -l < files.txt) paths listed before removal)"
  dpkg -s tap-uinput > /dev/null 2>&1 && fail "dpkg still knows the package after purge"
  return 0
}
