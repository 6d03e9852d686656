# The whole BLE path without the daemon: bonded virtual TAP -> real kernel/hci_vhci -> real
# bluetoothd -> D-Bus client (tools/gatt_probe.py): GATT table and flags, encrypted reads of the
# Device Information revisions and battery, AcquireNotify (mouse) and StartNotify (tap data)
# receiving the scripted notifications, then writes seen by the TAP with the right ATT opcode.
. "$E2E/lib/scenario.sh"

step "pairing left the TAP bonded: $TAP_ADDR"
info=$(bluetoothctl info "$TAP_ADDR")
grep -q 'Paired: yes' <<<"$info" || fail "not paired: $info"
grep -q 'Trusted: yes' <<<"$info" || fail "not trusted: $info"

tap_play bluez_gatt.tap
summary=$("$PY" "$TOOLS/gatt_probe.py" --expect-mouse 00010002000000000001 \
  --expect-tap 02000000 --expect-tap 05000000 --expect-tap 1f000000)
echo "$summary" > probe.json
step "probe: $summary"
tap_wait_done 10

expect_eq "$("$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["fw_rev"], d["hw_rev"], d["battery"])' <<<"$summary")" \
  "2.4.30 3.3.0 87" "Device Information and battery read through BlueZ"
wait_write nus_rx 030c0001 5
tapctl events --since "$SCENARIO_T0" --event write --char nus_rx > nus_writes.jsonl
grep -q '"op": "request"' nus_writes.jsonl || fail "the mode was not a write request: $(cat nus_writes.jsonl)"
wait_write ui 00020a0000000000000000000000000000000000 5
tapctl events --since "$SCENARIO_T0" --event write --char ui | grep -q '"op": "command"' \
  || fail "the haptic was not a write command"
tapctl events --since "$SCENARIO_T0" --event encryption | grep -q '"enabled": true' \
  || fail "the link was never encrypted"
step "done"
