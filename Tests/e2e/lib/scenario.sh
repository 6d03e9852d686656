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
start_daemon() {
  need_daemon
  "$TAP_UINPUT_BIN" run "$@" > "$OUT/daemon.log" 2>&1 &
  DAEMON_PID=$!
  trap stop_daemon EXIT
  step "daemon started (pid $DAEMON_PID): $TAP_UINPUT_BIN run $*"
}
stop_daemon() {
  [ -n "${DAEMON_PID:-}" ] || return 0
  if kill -0 "$DAEMON_PID" 2>/dev/null; then
    kill -TERM "$DAEMON_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$DAEMON_PID" 2>/dev/null
  fi
  wait "$DAEMON_PID" 2>/dev/null
  DAEMON_RC=$?
  DAEMON_PID=
  return 0
}
