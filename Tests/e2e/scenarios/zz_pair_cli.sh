# `tap-uinput forget` and `tap-uinput pair` against the real bluetoothd and the virtual TAP:
# forget removes the bond the set-up made; pair finds the TAP by discovery (TAP service filter),
# pairs it through our NoInputNoOutput agent and marks it trusted; `devices` lists it again.
# Named zz_ to run last: it replaces the bond the other scenarios use.
. "$E2E/lib/scenario.sh"
need_daemon
"$TAP_UINPUT_BIN" forget "$TAP_ADDR" | tee forget.txt
grep -q "Removed" forget.txt || fail "forget did not report the removal"
"$TAP_UINPUT_BIN" devices --timeout 5 > before.txt
grep -q "$TAP_ADDR" before.txt && fail "the TAP is still listed after forget: $(cat before.txt)"
step "ok: forgotten"

# Friendly first run: with nothing paired, the daemon says what to do next.
start_daemon
for _ in $(seq 100); do grep -q "tap-uinput pair" "$OUT/daemon.log" && break; sleep 0.2; done
grep -q "no paired TAP device found.*tap-uinput pair" "$OUT/daemon.log" \
  || fail "no first-run hint with nothing paired: $(tail -5 "$OUT/daemon.log")"
stop_daemon
step "ok: first-run hint"

tapctl advertise > /dev/null
"$TAP_UINPUT_BIN" pair --timeout 90 | tee pair.txt
grep -q "Paired and trusted .*($TAP_ADDR)" pair.txt || fail "pair did not pair the TAP: $(cat pair.txt)"
"$TAP_UINPUT_BIN" devices --timeout 10 > after.txt
grep -q "$TAP_ADDR" after.txt || fail "devices does not list the newly paired TAP: $(cat after.txt)"
step "ok: paired again through tap-uinput pair"

# A second pair with the address of a paired TAP only makes sure it is trusted.
"$TAP_UINPUT_BIN" pair --address "$TAP_ADDR" --timeout 30 | tee again.txt
grep -q "was already paired" again.txt || fail "pair --address of a paired TAP: $(cat again.txt)"
