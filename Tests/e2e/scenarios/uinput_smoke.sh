# The kernel's uinput and evdev in the VM: python-evdev creates a device, writes KEY_A, and
# reads it back from /dev/input/eventN; also checks that udev (if running) tagged it.
. "$E2E/lib/scenario.sh"

out=$(evdev_tool smoke)
echo "$out"
expect_eq "$out" "KEY_A 1
KEY_A 0
held while pressed: KEY_A" "uinput round trip through /dev/input/eventN"
[ -w /dev/uinput ] || fail "/dev/uinput not writable"
dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null \
  || fail "no session bus at $DBUS_SESSION_BUS_ADDRESS"
