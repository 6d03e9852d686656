# Sustained typing and pointer motion through the real path (virtual TAP -> bluetoothd ->
# daemon -> uinput -> evdev) for E2E_SOAK_SECONDS (default 90; an hour: E2E_SOAK_SECONDS=3600
# with E2E_SCENARIO_TIMEOUT=3900). Every tap must produce its key, in order, every real mouse
# packet a REL_X event; the daemon's RSS and open fds are sampled after a warm-up and every
# 15 s: fds must not grow at all, RSS by at most E2E_SOAK_RSS_KB (default 2048 kB).
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
secs=${E2E_SOAK_SECONDS:-90}
start_daemon --log-level info
wait_mode_since "$SCENARIO_T0" 60
start_reader events.txt --min-devices 2 --no-repeat --timeout $(( secs + 600 ))
"$PY" "$TOOLS/soak_driver.py" "$secs" --keys-out expected.txt --pid "$DAEMON_PID" --samples samples.txt > driver.txt \
  || fail "soak driver failed: $(cat driver.txt)"
step "driver: $(cat driver.txt)"
tapctl notify tap 10000000 > /dev/null   # pinky: a different chord executes the last one
sleep 2
kill "$READER_PID" 2>/dev/null || true
wait "$READER_PID" 2>/dev/null || true
read -r _ taps _ mouse < driver.txt
grep '^KEY_' events.txt | grep -v '^KEY_U' > got.txt || true
if ! cmp -s got.txt expected.txt; then
  diff expected.txt got.txt | head -n 20
  fail "keys differ from the taps sent ($(wc -l < expected.txt) expected, $(wc -l < got.txt) got)"
fi
step "ok: all $taps taps produced their keys, in order"
rel=$(awk '$1=="REL_X" && $2>0' events.txt | wc -l)
expect_eq "$rel" "$mouse" "every mouse packet moved the pointer"
expect_eq "$(evdev_tool held)" "" "nothing held after the soak"

cat samples.txt
read -r _ rss0 fd0 < <(head -n 1 samples.txt)
read -r _ rss1 fd1 < <(tail -n 1 samples.txt)
step "RSS ${rss0} -> ${rss1} kB, fds ${fd0} -> ${fd1} over ${secs} s ($taps taps, $mouse mouse packets)"
expect_eq "$fd1" "$fd0" "open fds did not grow"
[ $(( rss1 - rss0 )) -le "${E2E_SOAK_RSS_KB:-2048}" ] || fail "RSS grew by $(( rss1 - rss0 )) kB"
step "ok: RSS growth $(( rss1 - rss0 )) kB <= ${E2E_SOAK_RSS_KB:-2048} kB"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
