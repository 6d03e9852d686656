# The TAP drops the link and the central reconnects: the bond is reused (the link is encrypted
# again without pairing) and notifications flow again after re-subscribing. Exercises the
# virtual TAP's `disconnect`/`reconnect` script lines that daemon scenarios will use.
. "$E2E/lib/scenario.sh"

tap_play tap_reconnect.tap
"$PY" "$TOOLS/gatt_probe.py" --only-tap --expect-tap 01000000 > probe1.json
step "first connection: $(cat probe1.json)"
tapctl wait-event --since "$SCENARIO_T0" --event disconnected --timeout 15 >/dev/null \
  || fail "the TAP did not drop the link"
step "the TAP dropped the link"
"$PY" "$TOOLS/gatt_probe.py" --only-tap --expect-tap 02000000 --timeout 60 > probe2.json
step "second connection: $(cat probe2.json)"
tap_wait_done 15
n=$(tapctl events --since "$SCENARIO_T0" --event encryption | grep -c '"enabled": true' || true)
[ "$n" -ge 2 ] || fail "expected the link encrypted on both connections, saw $n"
if tapctl events --since "$SCENARIO_T0" --event paired | grep -q .; then
  fail "the central paired again instead of reusing the bond"
fi
step "bond reused on reconnect, encryption on both links"
