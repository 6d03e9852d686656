# SIGTERM, SIGINT and SIGKILL, each sent while the daemon holds the left button (drag lock):
# afterwards no key or button is down. SIGTERM/SIGINT: the daemon releases (the reader sees
# BTN_LEFT 0 before the node goes), writes Text mode (03 0C 00 00) to the TAP and exits 0.
# SIGKILL: nothing runs in the daemon; the kernel destroys both uinput devices when the fd
# closes (input_unregister_device releases held keys to their readers), so no node is left
# that could report a key down.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
write_hold_keymap
for sig in TERM INT KILL; do
  step "--- SIG$sig"
  t_start=$(now)
  start_daemon --log-level debug --keymap "$OUT/keymap.toml"
  wait_mode_since "$t_start" 60
  hold_button
  start_reader up.txt --min-devices 2 --count 1 --no-repeat --timeout 15
  t_sig=$(now)
  kill -"$sig" "$DAEMON_PID"
  rc=0; wait "$DAEMON_PID" || rc=$?
  DAEMON_PID=
  if [ "$sig" = KILL ]; then
    expect_eq "$rc" 137 "SIGKILL killed it"
    wait_reader up.txt
    expect_eq "$(cat up.txt)" "BTN_LEFT 0" "the kernel released the button when it destroyed the killed daemon's device"
  else
    expect_eq "$rc" 0 "clean exit on SIG$sig"
    wait_reader up.txt
    expect_eq "$(cat up.txt)" "BTN_LEFT 0" "SIG$sig released the left button before exiting"
    tapctl wait-event --since "$t_sig" --event write --char nus_rx --hex 030c0000 --timeout 10 >/dev/null \
      || fail "no Text mode written on SIG$sig"
    step "ok: Text mode written on SIG$sig"
  fi
  left=$(evdev_tool find 2>/dev/null || true)
  expect_eq "$left" "" "no TapUinput node left after SIG$sig"
  mv "$OUT/daemon.log" "$OUT/daemon-$sig.log"
done
# After the SIGKILL (Text mode was never written) a new daemon takes over and types.
t_start=$(now)
start_daemon --log-level debug
wait_mode_since "$t_start" 60
types_again after-sigkill
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
