# The .deb on a systemd guest with a real login: a TAP connecting starts the user unit, which types; doctor, VT switch, suspend, logout, removal.
# e2e-vm: systemd
# e2e-timeout: 600
# Runs in its own VM with systemd as PID 1 (vm/systemd/, README "The systemd guest"): udevd, the
# system bus, logind and bluetoothd are units; the virtual TAP offers HID over GATT (--hid) like a
# real TAP. Nothing here starts the daemon: the user logs in on VT 1 (agetty --autologin, login,
# pam_systemd), `dpkg -i` installs the package, the TAP is power-cycled, BlueZ reconnects it and
# its HoG plugin creates the TAP's input device, the package's udev rule puts
# SYSTEMD_USER_WANTS=tap-uinput.service on it and the user's manager starts the unit.
# Checked: the uaccess ACL on /dev/uinput is logind's doing (none before the package, the user at
# the active VT after it, moved by a VT switch, gone at logout); the unit's start came from the
# TAP's input device; controller mode 03 0C 00 01; a TapCode sentence typed right; doctor's
# diagnosis and fix for the unit stopped, the ACL removed, the module absent, the adapter off, a
# broken keymap, the TAP paired but not bonded (then the fix it names, run); a held button
# released on a session switch, on logind's PrepareForSleep (the kernel's sleep
# itself cannot run under qemu here and is replaced: the log says so) and on logout, with Text
# mode written; `dpkg -r`/`dpkg -P` clean. A failed switch or suspend check is reported at the
# end, after the remaining steps ran.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
deb=$(ls "$REPO"/.build/deb/tap-uinput_*_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no package in .build/deb: run make deb (scripts/test does)"
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd (run with E2E_VM=systemd)"
U1=tapuser U2=tapuser2

useradd --uid 4242 --user-group --create-home --shell /bin/bash $U1
useradd --uid 4243 --user-group --create-home --shell /bin/bash $U2
# Pinky + ring (unused by the sentence) = drag lock: holds the left button until pressed again.
mkdir -p /home/$U1/.config/tapuinput
printf 'extends = "builtin"\n[layers.base]\n"...xx" = "drag-lock"\n' > /home/$U1/.config/tapuinput/keymap.toml
chown -R $U1:$U1 /home/$U1/.config

as_user() { # as_user USER COMMAND...: as USER, in its session's environment
  local u=$1 uid; uid=$(id -u "$1"); shift
  setpriv --reuid="$u" --regid="$u" --init-groups env HOME=/home/$u XDG_RUNTIME_DIR=/run/user/$uid \
    DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/bus "$@"
}
user_ctl() { local u=$1; shift; as_user "$u" systemctl --user "$@"; }   # the user's own manager
session_of() { loginctl list-sessions --no-legend | awk -v u="$1" '$3 == u { print $1 }' | head -n1; }
active_user() { # the user of seat0's active session
  loginctl show-seat seat0 -P ActiveSession | xargs -r loginctl show-session -P Name
}
acl_users() { getfacl -cp /dev/uinput 2>/dev/null | sed -n 's/^user:\([^:][^:]*\):.*/\1/p' | sort | tr '\n' ' '; }
is_active_user() { [ "$(active_user)" = "$1" ]; }
acl_is() { [ "$(acl_users)" = "$1" ]; }
has_session() { [ -n "$(session_of "$1")" ]; }
hold() { # hold FILE WHAT: pinky + ring (drag lock) presses the left button, read back from FILE
  start_reader "$1" --min-devices 2 --count 1 --no-repeat --timeout 30
  tapctl notify tap 18000000 > /dev/null
  wait_reader "$1"
  expect_eq "$(cat "$1")" "BTN_LEFT 1" "$2"
}
unit_active() { [ "$(user_ctl $U1 is-active tap-uinput.service)" = active ]; }

step "systemd $(systemctl --version | head -n1 | cut -d' ' -f2) is PID 1 ($(systemctl is-system-running)); logind $(systemctl is-active systemd-logind)"

step "log in $U1 on VT 1 (getty autologin)"
systemctl start getty@tty1.service
wait_for 60 "$U1 has the active session on seat0" is_active_user $U1
S1=$(session_of $U1)
step "session $S1: $(loginctl show-session "$S1" -p Seat -p VTNr -p Type -p Class -p Active -p Remote | tr '\n' ' ')"
wait_for 60 "$U1's user manager is running" systemctl is-active user@4242.service
expect_eq "$(acl_users)" "" "no ACL on /dev/uinput before the package (nothing tags it uaccess)"

step "dpkg -i $(basename "$deb")"
# man-db's index rebuild on the 9p root takes minutes under TCG (as in deb_package).
rm -f /var/lib/man-db/auto-update
dpkg -i "$deb" > install.txt 2>&1 || fail "dpkg -i: $(tail -5 install.txt)"
dpkg -L tap-uinput > files.txt
wait_for 20 "logind's uaccess ACL on /dev/uinput is $U1's (postinst retriggered udev)" acl_is "$U1 "
getfacl -p /dev/uinput > acl-installed.txt 2>&1
expect_eq "$(user_ctl $U1 is-enabled tap-uinput.service || true)" "enabled" "the user unit is enabled for $U1"
expect_eq "$(user_ctl $U1 is-active tap-uinput.service || true)" "inactive" "the unit is not running yet (the login came first)"

step "the TAP is switched off and on; BlueZ reconnects it by itself"
t_cycle=$(now)
tapctl powercycle 1500 > /dev/null
wait_for 60 "the TAP's HID input device exists (BlueZ HoG over uhid)" \
  sh -c 'grep -l "^Tap_" /sys/class/input/input*/name | grep -q .'
tap_input=$(dirname "$(grep -l '^Tap_' /sys/class/input/input*/name | head -n1)")
udevadm info -q property -p "$tap_input" > tap-input-udev.txt
step "TAP input device $(basename "$tap_input"): \"$(cat "$tap_input/name")\", bus $(cat "$tap_input/id/bustype")"
grep -q '^SYSTEMD_USER_WANTS=.*tap-uinput.service' tap-input-udev.txt \
  || fail "the package's rule did not put SYSTEMD_USER_WANTS on the TAP's device: $(cat tap-input-udev.txt)"
wait_for 60 "$U1's manager started tap-uinput.service" unit_active
t_active=$(now)
user_ctl $U1 show tap-uinput.service -p WantedBy -p MainPID -p ExecMainStartTimestampMonotonic > unit.txt
step "unit: $(tr '\n' ' ' < unit.txt)"
grep -q '^WantedBy=.*\.device' unit.txt || fail "no .device unit wants tap-uinput.service: $(cat unit.txt)"
step "ok: a device unit (the TAP's input device) wants the unit"
wait_write nus_rx 030c0001 60
step "unit active $(awk -v a="$t_cycle" -v b="$t_active" 'BEGIN{printf "%.1f", b-a}') s after the power cycle"

step "a TapCode sentence, read back from the TapUinput keyboard"
start_reader keys.txt --min-devices 2 --no-repeat --timeout 60
tap_play systemd_session.tap
tap_wait_done 60
sleep 1
kill "$READER_PID" 2>/dev/null; wait "$READER_PID" 2>/dev/null || true
# us layout, as the guest's /etc/default/keyboard and localed say; shift tracked by hand.
typed=$(awk '
  BEGIN { split("a b c d e f g h i j k l m n o p q r s t u v w x y z", L, " ")
          for (i in L) { k["KEY_" toupper(L[i])] = L[i]; K["KEY_" toupper(L[i])] = toupper(L[i]) }
          for (d = 0; d <= 9; d++) k["KEY_" d] = d
          k["KEY_SPACE"] = " "; k["KEY_COMMA"] = ","; K["KEY_SEMICOLON"] = ":"; K["KEY_SLASH"] = "?" }
  /SHIFT/ { shift = $2; next }
  $2 == 1 { c = shift ? K[$1] : k[$1]; printf "%s", (c == "" ? "<" $1 (shift ? "+shift" : "") ">" : c) }' keys.txt)
expect_eq "$typed" "Quiz 42 why jam" "the sentence typed by the unit the TAP started"
expect_eq "$(evdev_tool held)" "" "nothing held after typing"

step "tap-uinput doctor as $U1, in its session, with one link broken at a time"
doctor_expect() { # doctor_expect NAME DIAGNOSIS FIX: exit status 1, the diagnosis line, its fix line
  local rc=0
  as_user $U1 timeout 60 /usr/bin/tap-uinput doctor > "doctor-$1.txt" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "doctor ($1): exit $rc, expected 1: $(cat "doctor-$1.txt")"
  grep -qF -- "$2" "doctor-$1.txt" || fail "doctor ($1) does not say '$2': $(cat "doctor-$1.txt")"
  # The fix line follows the diagnosis (a keymap error's source excerpt comes between them).
  grep -A6 -F -- "$2" "doctor-$1.txt" | grep -qF -- "fix: $3" || fail "doctor ($1): no fix '$3' after '$2': $(cat "doctor-$1.txt")"
  step "ok: doctor ($1) exits 1: $(grep -F -- "$2" "doctor-$1.txt" | sed 's/^ *//') / fix: $3"
}
user_ctl $U1 stop tap-uinput.service
doctor_expect unit-stopped "service: tap-uinput.service is inactive" "systemctl --user start tap-uinput"
setfacl -x u:$U1 /dev/uinput
doctor_expect no-acl "uinput: no write access to /dev/uinput" "install the udev rule (the package does)"
udevadm trigger --action=change --sysname-match=uinput   # as postinst does: the ACL back
wait_for 20 "udev and logind gave /dev/uinput its ACL for $U1 again" acl_is "$U1 "
rmmod uinput || fail "rmmod uinput: still in use ($(lsmod | grep '^uinput'))"
# On a systemd machine the node outlives the module: kmod-static-nodes.service made it at boot
# (the rule's static_node=uinput keeps its ACL), and opening it loads the module again. Doctor's
# "module absent" is what a machine without the static node sees; remove the node to get there.
[ -c /dev/uinput ] || fail "/dev/uinput went with the module: no static node"
step "ok: after rmmod uinput, /dev/uinput stays (static node, ACL: $(acl_users))"
rm /dev/uinput
doctor_expect module-absent "uinput: /dev/uinput does not exist: the uinput kernel module is not loaded" "sudo modprobe uinput"
modprobe uinput
wait_for 20 "udev and logind gave the new /dev/uinput its ACL for $U1 again" acl_is "$U1 "
t_cycle=$(now)
tapctl powercycle 1500 > /dev/null
wait_for 60 "the TAP's reconnection started the unit again" unit_active
wait_mode_since "$t_cycle" 60

bluetoothctl power off > /dev/null
doctor_expect adapter-off "is powered off" "bluetoothctl power on"
t_cycle=$(now)
bluetoothctl power on > /dev/null
wait_mode_since "$t_cycle" 90
step "ok: the adapter back on, the TAP reconnected in controller mode"
keymap=/home/$U1/.config/tapuinput/keymap.toml
cp "$keymap" keymap-good.toml
printf '"x...." = "entr"\n' >> "$keymap"   # a typo in a key name, saved
doctor_expect broken-keymap "keymap: $keymap:4:11: " "fix the file at the position shown"
cp keymap-good.toml "$keymap"
# Paired but not bonded: the TAP answers the pairing without a bond, so BlueZ keeps no keys.
tapctl bonding off > /dev/null
bluetoothctl remove "$TAP_ADDR" > /dev/null
"$PY" "$TOOLS/pair.py" --address "$TAP_ADDR" --unbonded --stay-connected --timeout 60 > /dev/null 2> pair-unbonded.txt \
  || fail "pairing without a bond: $(tail -n 3 pair-unbonded.txt)"
step "$(grep -F "$TAP_ADDR: {" pair-unbonded.txt | sed 's/^pair: //')"
doctor_expect not-bonded "paired but not bonded" "bluetoothctl remove $TAP_ADDR; then: tap-uinput pair"
step "doctor's fix, as $U1: bluetoothctl remove, tap-uinput pair (this time the TAP bonds)"
tapctl bonding on > /dev/null
as_user $U1 bluetoothctl remove "$TAP_ADDR" > /dev/null
t_cycle=$(now)
as_user $U1 /usr/bin/tap-uinput pair --address "$TAP_ADDR" --timeout 60 > pair-bonded.txt 2>&1 \
  || fail "tap-uinput pair as $U1: $(tail -n 3 pair-bonded.txt)"
grep -q "Paired and trusted .*($TAP_ADDR)" pair-bonded.txt || fail "tap-uinput pair did not pair: $(cat pair-bonded.txt)"
[ "$(busctl get-property org.bluez "/org/bluez/hci0/dev_${TAP_ADDR//:/_}" org.bluez.Device1 Bonded)" = "b true" ] \
  || fail "not bonded after tap-uinput pair"
step "ok: tap-uinput pair said \"$(tail -n 1 pair-bonded.txt)\"; BlueZ: Bonded true"
wait_mode_since "$t_cycle" 90
step "ok: bonded again, the running unit took the TAP back in controller mode"

step "hold the left button (drag lock), then switch to $U2 on VT 2 (loginctl activate)"
hold hold.txt "drag lock pressed the left button"
systemctl start getty@tty2.service
wait_for 60 "$U2 has a session" has_session $U2
S2=$(session_of $U2)
# $U2's manager got the globally enabled unit too; the unit's ExecCondition (test -w /dev/uinput)
# skips it for a user whose session is not the active one.
wait_for 60 "$U2's user manager is running" systemctl is-active user@4243.service
step "$U2's tap-uinput.service: $(user_ctl $U2 show tap-uinput.service -p ActiveState -p ConditionResult -p ExecMainStatus 2>&1 | tr '\n' ' ')"
start_reader switch.txt --min-devices 2 --count 1 --no-repeat --timeout 8
loginctl activate "$S2"   # logind switches the VT itself
wait_for 30 "$U2's session is the active one" is_active_user $U2
wait_for 20 "the ACL moved to $U2" acl_is "$U2 "
getfacl -p /dev/uinput > acl-switched.txt 2>&1
wait "$READER_PID" 2>/dev/null || true
held=$(evdev_tool held)
step "after the switch: reader saw '$(cat switch.txt)'; held: '$held'; $U1's unit $(user_ctl $U1 is-active tap-uinput.service || true)"
[ -z "$held" ] || SWITCH_FAIL="the daemon of the now inactive session $U1 still holds $held after the switch to $U2 (its SeatWatcher did not release)"

step "back to $U1 on VT 1"
loginctl activate "$S1"
wait_for 30 "$U1's session is active again" is_active_user $U1
wait_for 20 "the ACL moved back to $U1" acl_is "$U1 "
if [ -n "$held" ]; then
  # Release it the way the user would, so the later checks start from nothing held.
  tapctl notify tap 18000000 > /dev/null; sleep 1
fi

step "suspend: a real PrepareForSleep from logind (systemctl suspend) while the button is held"
# The kernel's part cannot run under qemu here (README, "The systemd guest"): with S3 (deep) qemu
# exits when the RTC alarm wakes the guest; in s2idle neither the RTC alarm nor the ACPI power
# button (qemu monitor) woke it in 2.5 min. So systemd-suspend.service's systemd-sleep (the write
# to /sys/power/state) is replaced, at runtime, by a note of when it would have run; logind,
# PrepareForSleep, suspend.target and the job are the real ones.
mkdir -p /run/systemd/system/systemd-suspend.service.d
cat > /run/systemd/system/systemd-suspend.service.d/e2e.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/bin/sh -c 'cut -d" " -f1 /proc/uptime > /run/e2e-sleep-at; sleep 2'
UNIT
systemctl daemon-reload
step "KERNEL SLEEP NOT RUN: /sys/power/state ($(cat /sys/power/state), mem_sleep $(cat /sys/power/mem_sleep)) is not written; systemd-sleep replaced by a time stamp"
hold hold3.txt "drag lock pressed the left button"
start_reader sleep.txt --min-devices 2 --count 1 --no-repeat --time --timeout 60
rm -f /run/e2e-sleep-at
systemctl suspend
for _ in $(seq 300); do [ -s /run/e2e-sleep-at ] && break; sleep 0.2; done
if [ ! -s /run/e2e-sleep-at ]; then
  { systemctl list-jobs; systemctl status --no-pager suspend.target systemd-suspend.service sleep.target; } > suspend-stuck.txt 2>&1 || true
  step "systemd-suspend.service did not run within 60 s of logind's suspend: $(head -n 5 suspend-stuck.txt | tr '\n' ' ')"
  echo 0 > /run/e2e-sleep-at   # so the comparison below fails too
  SUSPEND_STUCK="systemd never ran systemd-suspend.service after logind announced the suspend (suspend-stuck.txt); "
fi
wait_reader sleep.txt
expect_eq "$(cut -d' ' -f2- sleep.txt)" "BTN_LEFT 0" "PrepareForSleep(true) from logind released the button"
expect_eq "$(evdev_tool held)" "" "nothing held across the suspend"
journalctl -b --no-pager -o short-monotonic -u systemd-suspend.service -u systemd-logind.service \
  | tail -n 30 > suspend-journal.txt 2>&1 || true
release=$(cut -d' ' -f1 sleep.txt) sleep_at=$(cat /run/e2e-sleep-at)
step "button released at ${release}s (CLOCK_MONOTONIC); the kernel would have been told to sleep at ${sleep_at}s"
awk -v r="$release" -v e="$sleep_at" 'BEGIN { exit !(r < e) }' \
  || SUSPEND_FAIL="${SUSPEND_STUCK:-}the button was released only after the moment the kernel would have slept (${release}s >= ${sleep_at}s): logind did not wait for the daemon's delay inhibitor lock"
rm -r /run/systemd/system/systemd-suspend.service.d && systemctl daemon-reload
start_reader again.txt --min-devices 2 --count 2 --no-repeat --timeout 30
tapctl notify tap 02000000 > /dev/null
wait_reader again.txt
expect_eq "$(cat again.txt)" "KEY_E 1
KEY_E 0" "the TAP types again after PrepareForSleep(false)"

step "log $U1 out (loginctl terminate-session) while the button is held"
hold hold2.txt "drag lock pressed the left button again"
start_reader logout.txt --min-devices 2 --no-repeat --timeout 60
t_logout=$(now)
# The getty first (it would log the user in again), then the session: logind stops the user's
# manager once its last session is gone (UserStopDelaySec, 10 s), and the unit with it.
systemctl stop getty@tty1.service
loginctl terminate-session "$S1" 2>/dev/null || true
wait_for 60 "$U1's manager stopped (and the unit with it)" sh -c '! systemctl is-active user@4242.service'
wait "$READER_PID" 2>/dev/null || true
expect_eq "$(cat logout.txt)" "BTN_LEFT 0" "the unit's stop released the held button before its devices went"
expect_eq "$(evdev_tool find 2>/dev/null || true)" "" "no TapUinput device left after logout"
tapctl wait-event --since "$t_logout" --event write --char nus_rx --hex 030c0000 --timeout 10 > /dev/null \
  || fail "no Text mode (030c0000) written at logout"
step "ok: the unit wrote Text mode when the logout stopped it"
expect_eq "$(acl_users)" "" "no user has the ACL with nobody's session active on seat0"

step "dpkg -r, dpkg -P"
remove_and_purge_package

[ -z "${SWITCH_FAIL:-}" ] || fail "$SWITCH_FAIL"
[ -z "${SUSPEND_FAIL:-}" ] || fail "$SUSPEND_FAIL"
step "all checks passed (the kernel's sleep itself was not run: see the suspend step)"
