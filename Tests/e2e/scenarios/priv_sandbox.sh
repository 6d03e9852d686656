# The daemon as the systemd user unit would run it: an unprivileged user whose only way to
# /dev/uinput is the ACL that logind sets from the udev rule's `uaccess` tag, inside the unit's
# sandbox. The guest has no systemd (PID 1 is the harness's init, no logind, no user manager),
# so tools/sandbox_exec.py reproduces the unit's settings with the same kernel mechanisms systemd
# uses (mount namespace, setuid, no_new_privs, seccomp; see its docstring for what is and is
# not emulated), and the uaccess ACL is written as logind writes it (acl_set_file: a user entry
# rw- in system.posix_acl_access). The sandbox itself is checked first (--probe), then:
# without the ACL the daemon cannot open /dev/uinput; with it, it starts, connects the TAP over
# the system bus and types; its open fds are /dev/uinput and AF_UNIX/AF_NETLINK sockets only (no
# /dev/input/*, no Bluetooth or IP socket); it runs without capabilities and with NoNewPrivs;
# its control interface is on the user's session bus and not on the system bus.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
need_daemon
U=tapuser
id "$U" > /dev/null 2>&1 || useradd --uid 4242 --user-group --home-dir /home/$U --create-home --shell /usr/sbin/nologin "$U"
UID_U=$(id -u "$U")
RT=/run/user/$UID_U
mkdir -p "$RT" /home/$U/.config/tapuinput && chown -R "$U:$U" "$RT" /home/$U && chmod 700 "$RT"
as_user() { setpriv --reuid="$U" --regid="$U" --init-groups env -i PATH=/usr/bin:/bin HOME=/home/$U \
  XDG_RUNTIME_DIR="$RT" DBUS_SESSION_BUS_ADDRESS="unix:path=$RT/bus" "$@"; }
as_user dbus-daemon --session --fork --nopidfile --address="unix:path=$RT/bus" > /dev/null \
  || fail "could not start the user's session bus"
step "user $U ($UID_U), session bus at $RT/bus; /dev/uinput: $(stat -c '%A %U:%G' /dev/uinput)"

step "the sandbox (as the daemon will get it)"
unshare --mount --propagation private -- "$PY" "$TOOLS/sandbox_exec.py" --user "$U" --probe > probe.txt 2>&1 \
  || fail "sandbox probe failed: $(cat probe.txt)"
cat probe.txt
grep -q FAILED probe.txt && fail "the emulated sandbox is not what the unit asks for"
[ "$(grep -c ' ok' probe.txt)" -ge 12 ] || fail "sandbox probe incomplete"

sandboxed() {  # the daemon under the sandbox, as $U, with the unit's environment
  exec unshare --mount --propagation private -- "$PY" "$TOOLS/sandbox_exec.py" --user "$U" -- \
    /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/$U XDG_RUNTIME_DIR="$RT" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$RT/bus" "$TAP_UINPUT_BIN" run "$@"
}

step "without the uaccess ACL: no /dev/uinput for $U"
sandboxed > noacl.log 2>&1 &
p=$!
for _ in $(seq 200); do kill -0 $p 2>/dev/null || break; sleep 0.1; done
kill -0 $p 2>/dev/null && { kill $p; fail "the daemon kept running without access to /dev/uinput"; }
rc=0; wait $p || rc=$?
cat noacl.log | tail -n 3
[ "$rc" -ne 0 ] || fail "the daemon ran without access to /dev/uinput (exit $rc)"
grep -qi "uinput" noacl.log || fail "the failure does not mention /dev/uinput"
step "ok: refused (exit $rc), and says why"

step "grant the uaccess ACL as logind does"
"$PY" - "$UID_U" <<'PY' || fail "setting the ACL failed"
import os, struct, sys
uid = int(sys.argv[1])
st = os.stat('/dev/uinput')
mode = st.st_mode
# POSIX ACL xattr: version 2, then (tag, perm, id): USER_OBJ, USER uid rw, GROUP_OBJ, MASK rw, OTHER
e = lambda tag, perm, id=0xffffffff: struct.pack('<HHI', tag, perm, id)
acl = struct.pack('<I', 2) + e(0x01, (mode >> 6) & 7) + e(0x02, 6, uid) + e(0x04, (mode >> 3) & 7) \
    + e(0x10, 6) + e(0x20, mode & 7)
os.setxattr('/dev/uinput', 'system.posix_acl_access', acl)
print('acl set', len(os.getxattr('/dev/uinput', 'system.posix_acl_access')), 'bytes')
PY
setpriv --reuid="$U" --regid="$U" --init-groups test -w /dev/uinput || fail "$U cannot write /dev/uinput with the ACL"
for ev in /dev/input/event*; do
  setpriv --reuid="$U" --regid="$U" --init-groups test -r "$ev" && fail "$U can read $ev: the ACL grants too much"
done
step "ok: $U may write /dev/uinput and read no /dev/input/event*"

sandboxed --log-level debug > "$OUT/daemon.log" 2>&1 &
DAEMON_PID=$!
trap stop_daemon EXIT
wait_mode_since "$SCENARIO_T0" 60
types_again sandboxed

st=/proc/$DAEMON_PID/status
expect_eq "$(awk '/^Uid:/{print $2}' $st) $(awk '/^NoNewPrivs:/{print $2}' $st) $(awk '/^Seccomp:/{print $2}' $st) $(awk '/^CapEff:/{print $2}' $st)" \
  "$UID_U 1 2 0000000000000000" "runs as $U with NoNewPrivs, a seccomp filter and no capabilities"
rw=$(awk '$5 !~ "^/(dev|proc|sys)(/|$)" && $6 !~ /(^|,)ro(,|$)/ {print $5}' /proc/$DAEMON_PID/mountinfo | grep -vx -e /tmp -e /var/tmp | tr '\n' ' ')
expect_eq "$rw" "" "every mount the daemon sees is read-only except /dev, /proc, /sys and its private /tmp, /var/tmp"
ls -l /proc/$DAEMON_PID/fd | awk 'NR>1 {print $NF}' | sort | uniq -c > fds.txt
cat fds.txt
devs=$(awk '$2 ~ /^\/dev\// {print $2}' fds.txt | sort -u | tr '\n' ' ')
expect_eq "$devs" "/dev/null /dev/uinput " "the only devices open are /dev/uinput (and /dev/null)"
unix=$(awk 'NR>1 {print $NF}' /proc/net/unix) nl=$(awk 'NR>1 {print $NF}' /proc/net/netlink)
for s in $(awk '$2 ~ /^socket:/ {gsub(/[^0-9]/, "", $2); print $2}' fds.txt); do
  if echo "$unix" | grep -qx "$s"; then continue; fi
  if echo "$nl" | grep -qx "$s"; then continue; fi
  fail "socket inode $s is neither AF_UNIX nor AF_NETLINK"
done
step "ok: every socket is AF_UNIX or AF_NETLINK"
grep -q "$TAP_UINPUT_BIN" /proc/$DAEMON_PID/cmdline || fail "pid $DAEMON_PID is not the daemon"

busctl --system list --no-pager > system-names.txt
grep -q org.tapuinput system-names.txt && fail "the control interface is on the system bus"
as_user busctl --user list --no-pager > session-names.txt 2>&1 || true
grep -q org.tapuinput.Daemon session-names.txt || fail "org.tapuinput.Daemon is not on the user's session bus: $(cat session-names.txt | head)"
step "ok: org.tapuinput.Daemon on $U's session bus only"
as_user "$TAP_UINPUT_BIN" status > status.txt 2>&1 || fail "tap-uinput status as $U failed: $(cat status.txt)"
grep -q "$TAP_ADDR" status.txt || fail "status does not list the TAP: $(cat status.txt)"
step "ok: tap-uinput status over the session bus"

stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
wait_write nus_rx 030c0000 10
