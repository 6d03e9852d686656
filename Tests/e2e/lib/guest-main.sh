#!/bin/bash
# Runs inside the VM as vm/guest-init's payload: the common set-up (modules, udev, system D-Bus,
# bluetoothd, the virtual TAP), pairing, then every scenario named in $SCENARIOS, each with a
# time limit. Writes one line per scenario to $OUT/results.txt: `PASS|FAIL|SKIP NAME SECONDS [why]`.
set -u
. "$E2E/lib/guest-setup.sh"

results=$OUT/results.txt
: > "$results"
export E2E_OUT=$OUT

if ! e2e_setup; then
  echo "FAIL setup 0 (see guest.log)" >> "$results"
  exit 1
fi

failed=0
for name in $SCENARIOS; do
  e2e_run_scenario "$name" || failed=1
done
e2e_teardown
log "all done after $(uptime_s) s of guest time"
exit $failed
