# Helpers shared by the desktop_* scenarios (source after lib/scenario.sh).

# What scenarios/desktop_sentence.tap types in TapCode.
SENTENCE='Quiz 42: why, jam?'

# start_typist ORIGIN COMMAND...: the daemon, as a desktop session starts it: no --layout (it
# must find the desktop's layout itself). Returns once the TAP is in controller mode, COMMAND
# succeeds (the display server has opened the daemon's keyboard: typing before that would go
# nowhere) and `tap-uinput status` says it types for a layout from ORIGIN (x11, sway). How long
# that took after controller mode goes in the log: taps in between would use the default layout.
start_typist() {
  local t0 t1 origin=$1; shift
  t0=$(now)
  start_daemon --log-level debug
  tapctl wait-event --since "$t0" --event write --char nus_rx --hex 030c0001 --timeout 60 > /dev/null \
    || fail "the daemon did not put the TAP in controller mode within 60 s"
  t1=$(now)
  wait_for 30 "the display server to open the TapUinput keyboard" "$@"
  local end=$(( $(date +%s) + 30 ))
  until daemon_layout_from "$origin"; do
    if [ "$(date +%s)" -ge "$end" ]; then   # what the daemon says, and what it has open
      { "$TAP_UINPUT_BIN" status; ls -l "/proc/$DAEMON_PID/fd"; ss -xp
        grep -H tfd "/proc/$DAEMON_PID/fdinfo/"*; } > "$OUT/stalled-status.txt" 2>&1
      fail "the daemon did not take the layout from $origin within 30 s (its status: stalled-status.txt)"
    fi
    sleep 0.2
  done
  step "daemon typing for $("$TAP_UINPUT_BIN" status --json | sed -n 's/^ *"layout" *: *"\(.*\)",*$/\1/p') from $origin," \
    "$(awk -v a="$t1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}') s after controller mode; the display server has its keyboard"
}
daemon_layout_from() { "$TAP_UINPUT_BIN" status --json 2> /dev/null | grep -Eq "\"layoutOrigin\" *: *\"$1\""; }

# type_sentence FILE WHAT: plays the sentence on the TAP and expects FILE (what the focused
# application received; emptied by the caller) to hold exactly it.
type_sentence() {
  local file=$1 what=$2 end
  tap_play desktop_sentence.tap
  tap_wait_done 60
  end=$(( $(date +%s) + 10 ))
  until [ "$(cat "$file")" = "$SENTENCE" ] || [ "$(date +%s)" -ge "$end" ]; do sleep 0.2; done
  expect_eq "$(cat "$file")" "$SENTENCE" "$what"
}

# stop_typist NAME: nothing held, the daemon stopped (clean exit), its log kept as daemon-NAME.log.
stop_typist() {
  expect_eq "$(evdev_tool held)" "" "nothing held after typing"
  stop_daemon
  expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
  mv "$OUT/daemon.log" "$OUT/daemon-$1.log"
}
