# The project's udev rules (udev/*.rules, installed by the harness's set-up) as the real udevd
# evaluates them: /dev/uinput gets the uaccess tag; an input device on the Bluetooth bus named
# like a TAP (what BlueZ's HID-over-GATT creates) asks systemd for the user service; our own
# virtual devices and a USB device with a TAP-like name do not.
. "$E2E/lib/scenario.sh"
[ -e /sys/devices/virtual/misc/uinput ] || fail "no uinput misc device"
udevadm test /sys/devices/virtual/misc/uinput > uinput.txt 2>&1 || true
grep -q "uaccess" uinput.txt || fail "the uinput rule did not tag uaccess: $(tail -5 uinput.txt)"
step "ok: /dev/uinput tagged uaccess"

# Three look-alike input devices made with uinput: (name, bus).
"$PY" - > devices.txt <<'PY' &
import evdev, sys, time
made = [evdev.UInput({evdev.ecodes.EV_KEY: [evdev.ecodes.KEY_A]}, name=n, bustype=b)
        for n, b in (("Tap_E2E0001", 0x05), ("TapUinput keyboard", 0x06), ("Tap_USB_lookalike", 0x03))]
print("ready", flush=True)
time.sleep(60)
PY
MAKER=$!
trap 'kill $MAKER 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q ready devices.txt && break; sleep 0.1; done
grep -q ready devices.txt || fail "could not create the look-alike devices"

sys_for() {  # the /sys input device whose name is $1
  local d
  for d in /sys/class/input/input*; do
    [ "$(cat "$d/name")" = "$1" ] && { echo "$d"; return 0; }
  done
  return 1
}
wants() { udevadm test "$(sys_for "$1")" 2>&1 | grep -c "SYSTEMD_USER_WANTS=tap-uinput.service" || true; }
expect_eq "$(wants Tap_E2E0001)" 1 "a TAP's Bluetooth input device starts the user service"
expect_eq "$(wants 'TapUinput keyboard')" 0 "our own virtual keyboard does not"
expect_eq "$(wants Tap_USB_lookalike)" 0 "a USB device named Tap* does not"
