# Helpers shared by the desktop_* scenarios (source after lib/scenario.sh).

# What scenarios/desktop_sentence.tap types in TapCode.
SENTENCE='Quiz 42: why, jam boxes?'

# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds, else fail.
wait_for() {
  local end=$(( $(date +%s) + $1 )) what=$2; shift 2
  until "$@" > /dev/null 2>&1; do
    [ "$(date +%s)" -lt "$end" ] || fail "timed out waiting for $what"
    sleep 0.2
  done
}

# start_typist COMMAND...: the daemon, as a desktop session starts it: no --layout (it must find
# the desktop's layout itself). Returns once the TAP is in controller mode and COMMAND succeeds:
# it tells that the display server has opened the daemon's keyboard (typing before that would
# go nowhere).
start_typist() {
  local t0
  t0=$(now)
  start_daemon --log-level debug
  tapctl wait-event --since "$t0" --event write --char nus_rx --hex 030c0001 --timeout 60 > /dev/null \
    || fail "the daemon did not put the TAP in controller mode within 60 s"
  wait_for 30 "the display server to open the TapUinput keyboard" "$@"
  step "daemon connected; the display server has its keyboard"
}

# type_sentence FILE WHAT: plays the sentence on the TAP and expects FILE (what the focused
# application received; emptied by the caller) to hold exactly it, and no key to stay held.
type_sentence() {
  local file=$1 what=$2 end
  tap_play desktop_sentence.tap
  tap_wait_done 60
  end=$(( $(date +%s) + 10 ))
  until [ "$(cat "$file")" = "$SENTENCE" ] || [ "$(date +%s)" -ge "$end" ]; do sleep 0.2; done
  expect_eq "$(cat "$file")" "$SENTENCE" "$what"
  expect_eq "$(evdev_tool held)" "" "nothing held after typing"
}
