# The TAP's link drops mid-sequence while Shift is latched (one-shot), the left button is held
# (drag lock) and a key is held (Z, bound to the TapXR fist hand state, held while the hand stays
# closed). Afterwards the kernel reports nothing held. When the TAP comes back the daemon
# re-applies controller mode and the TAP types again, and the latched Shift is gone: expected
# behaviour is that a disconnect drops all engine state of the device (one-shots, locks, drag
# lock, layer), as `clear` does, so the first key after reconnect is a plain "e", not "E".
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
write_hold_keymap
start_daemon --log-level debug --keymap "$OUT/keymap.toml"
start_reader down.txt --min-devices 2 --count 2 --no-repeat --timeout 90
tap_play fault_disconnect_held.tap
wait_reader down.txt
tap_wait_done 30 > /dev/null
expect_eq "$(cat down.txt)" "BTN_LEFT 1
KEY_Z 1" "drag lock pressed the left button, the fist holds Z"
expect_eq "$(evdev_tool held | sort)" "BTN_LEFT
KEY_Z" "the kernel holds the left button and Z (Shift is only latched, not pressed)"

"$TAP_UINPUT_BIN" status > status-before.txt || fail "tap-uinput status failed"
grep -qi "one-shot shift" status-before.txt || fail "Shift is not latched before the disconnect: $(cat status-before.txt)"
step "ok: the daemon reports Shift latched: $(grep -i 'one-shot' status-before.txt | head -n 1)"
start_reader up.txt --min-devices 2 --count 2 --no-repeat --timeout 30
t_drop=$(now); T_FAULT=$t_drop
step "the TAP drops the link"
tapctl disconnect > /dev/null
wait_reader up.txt
expect_eq "$(sort up.txt)" "BTN_LEFT 0
KEY_Z 0" "the disconnect released the button and the key"
expect_eq "$(evdev_tool held)" "" "nothing held after the disconnect"
wait_log "disconnected: "
"$TAP_UINPUT_BIN" status > status-after.txt || fail "tap-uinput status failed"
grep -qi "one-shot" status-after.txt && fail "Shift is still latched after the disconnect: $(cat status-after.txt)"

# `disconnect` leaves the TAP advertising: the daemon reconnects it by itself.
wait_reconnected_mode "$T_FAULT" 90
types_again after-reconnect
n=$(tapctl events --since "$SCENARIO_T0" --event paired | wc -l)
expect_eq "$n" 0 "the bond was reused (no new pairing)"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
