# The daemon as its systemd user unit runs it: systemd/tap-uinput.service.in, unchanged but for
# @BINDIR@, started by the real systemd user manager (`systemd --user`, the host's systemd, run in
# the guest as an unprivileged user with a delegated cgroup; the guest's PID 1 is not systemd,
# so /run/systemd/system is created for the manager's sd_booted() check). The user's only way to
# /dev/uinput is the ACL logind would set from the udev rule's `uaccess` tag (written as logind
# writes it: a user entry rw- in system.posix_acl_access; there is no logind in the guest).
# Checked: without the ACL the daemon cannot open /dev/uinput and says why; a probe unit with
# the same sandbox settings finds them in force (AF_INET/AF_BLUETOOTH sockets refused, W+X
# mappings refused, /etc, $HOME, /run/user read-only, /tmp private, no capabilities,
# NoNewPrivs); the real unit starts, connects the TAP over the system bus and types; it runs as
# the user with NoNewPrivs, seccomp, no capabilities, read-only mounts; its open fds are
# /dev/uinput, /dev/null and AF_UNIX/AF_NETLINK sockets only; its control interface is on the
# user's session bus only; `systemctl --user stop` makes it write Text mode and exit 0.
# If the user manager cannot run, the same checks run under tools/sandbox_exec.py's emulation
# of the unit's settings, and the log says so (SANDBOX=emulated).
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
need_daemon
U=tapuser
id "$U" > /dev/null 2>&1 || useradd --uid 4242 --user-group --home-dir /home/$U --create-home --shell /usr/sbin/nologin "$U"
UID_U=$(id -u "$U")
RT=/run/user/$UID_U
mkdir -p "$RT" /home/$U/.config/tapuinput /home/$U/.config/systemd/user
chown -R "$U:$U" "$RT" /home/$U && chmod 700 "$RT"
as_user() { setpriv --reuid="$U" --regid="$U" --init-groups env -i PATH=/usr/bin:/bin HOME=/home/$U \
  XDG_RUNTIME_DIR="$RT" DBUS_SESSION_BUS_ADDRESS="unix:path=$RT/bus" "$@"; }
as_user dbus-daemon --session --fork --nopidfile --address="unix:path=$RT/bus" > /dev/null \
  || fail "could not start the user's session bus"
step "user $U ($UID_U), session bus at $RT/bus; /dev/uinput: $(stat -c '%A %U:%G' /dev/uinput)"

step "without the uaccess ACL: no /dev/uinput for $U"
rc=0; as_user timeout 20 "$TAP_UINPUT_BIN" run > noacl.log 2>&1 || rc=$?
tail -n 3 noacl.log
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "the daemon ran without access to /dev/uinput (exit $rc)"
grep -q "/dev/uinput failed: Permission denied" noacl.log || fail "the failure does not say /dev/uinput was refused"
step "ok: refused (exit $rc), and says why"

step "grant the uaccess ACL as logind does"
"$PY" - "$UID_U" <<'PY' || fail "setting the ACL failed"
import os, struct, sys
uid = int(sys.argv[1])
mode = os.stat('/dev/uinput').st_mode
# POSIX ACL xattr: version 2, then (tag, perm, id): USER_OBJ, USER uid rw, GROUP_OBJ, MASK rw, OTHER
e = lambda tag, perm, id=0xffffffff: struct.pack('<HHI', tag, perm, id)
acl = struct.pack('<I', 2) + e(0x01, (mode >> 6) & 7) + e(0x02, 6, uid) + e(0x04, (mode >> 3) & 7) \
    + e(0x10, 6) + e(0x20, mode & 7)
os.setxattr('/dev/uinput', 'system.posix_acl_access', acl)
PY
setpriv --reuid="$U" --regid="$U" --init-groups test -w /dev/uinput || fail "$U cannot write /dev/uinput with the ACL"
for ev in /dev/input/event*; do
  setpriv --reuid="$U" --regid="$U" --init-groups test -r "$ev" && fail "$U can read $ev: the ACL grants too much"
done
step "ok: $U may write /dev/uinput and read no /dev/input/event*"

# --- the real user manager ---
CG=/sys/fs/cgroup/user.slice/user-$UID_U.slice/user@$UID_U.service
SD_PID=
cleanup() {
  if [ -n "$SD_PID" ]; then
    usystemctl stop tap-uinput.service > /dev/null 2>&1 || true
    kill "$SD_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SD_PID" 2>/dev/null || break; sleep 0.1; done
    [ -e "$CG/cgroup.kill" ] && echo 1 > "$CG/cgroup.kill" 2>/dev/null || true
    cp "$RT/daemon.log" "$OUT/daemon.log" 2>/dev/null || true
  fi
  [ "${SANDBOX:-}" = unit ] && DAEMON_PID=
  stop_daemon
  [ -n "${JSINK:-}" ] && kill "$JSINK" 2>/dev/null
  [ -n "${MADE_SD_DIR:-}" ] && rm -rf /run/systemd
  [ -n "${TMP_MODES:-}" ] && { set -- $TMP_MODES; chmod "$1" /tmp; chmod "$2" /var/tmp; }
  return 0
}
trap cleanup EXIT
usystemctl() { as_user systemctl --user "$@"; }
start_user_manager() {
  command -v systemctl > /dev/null && [ -x /lib/systemd/systemd ] || { echo "no systemd installed"; return 1; }
  if [ ! -d /run/systemd ]; then mkdir -p /run/systemd/system; MADE_SD_DIR=1; fi
  if ! grep -q cgroup2 /proc/mounts; then mount -t cgroup2 cgroup2 /sys/fs/cgroup || { echo "no cgroup2"; return 1; }; fi
  mkdir -p "$CG" && chown -R "$U:$U" "$(dirname "$CG")"
  # What a systemd-booted machine has and the guest lacks: /run/systemd/unit-root (the mount
  # point the manager builds a unit's namespace on), a 1777 /tmp and /var/tmp (PrivateTmp=),
  # and a journal socket (a stand-in that writes the messages to $OUT/journal.txt).
  mkdir -p /run/systemd/unit-root /run/systemd/journal
  TMP_MODES="$(stat -c %a /tmp) $(stat -c %a /var/tmp)"
  chmod 1777 /tmp /var/tmp
  "$PY" - "$OUT/journal.txt" > /dev/null 2>&1 <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
path = '/run/systemd/journal/socket'
if os.path.exists(path):
    os.unlink(path)
s.bind(path)
os.chmod(path, 0o666)
out = open(sys.argv[1], 'a')
while True:
    fields = dict(l.split('=', 1) for l in s.recv(65536).decode(errors='replace').split('\n') if '=' in l)
    out.write(f"{fields.get('USER_UNIT', fields.get('UNIT', '-'))}: {fields.get('MESSAGE', '')}\n")
    out.flush()
PY
  JSINK=$!
  for _ in $(seq 50); do [ -S /run/systemd/journal/socket ] && break; sleep 0.1; done
  ( echo "$BASHPID" > "$CG/cgroup.procs"
    exec setpriv --reuid="$U" --regid="$U" --init-groups env -i PATH=/usr/bin:/bin HOME=/home/$U \
      XDG_RUNTIME_DIR="$RT" /lib/systemd/systemd --user --log-target=journal --log-level=${E2E_SD_LOG:-info} ) > user-manager.log 2>&1 &
  SD_PID=$!
  local state=
  for _ in $(seq 150); do
    state=$(usystemctl is-system-running 2>/dev/null || true)
    case $state in running|degraded) echo "user manager $state (pid $SD_PID)"; return 0 ;; esac
    kill -0 "$SD_PID" 2>/dev/null || break
    sleep 0.2
  done
  echo "user manager not running (state '$state'): $(tail -n 5 user-manager.log)"
  return 1
}

# What the sandboxed units run must be visible inside the sandbox: PrivateTmp hides /tmp, and
# the work tree may live there (a CI clone). Install copies where `make install` would put
# them (the guest's root is a writable overlay; the host is untouched).
INSTALLED=/usr/local/lib/tapuinput-e2e
install -D -m755 "$TAP_UINPUT_BIN" "$INSTALLED/tap-uinput"
install -D -m644 "$TOOLS/sandbox_exec.py" "$INSTALLED/sandbox_exec.py"
TAP_UINPUT_BIN=$INSTALLED/tap-uinput

# Not in $(...): the manager and the journal stand-in would hold the substitution's pipe open,
# and SD_PID/JSINK must reach cleanup.
if start_user_manager > user-manager-start.txt 2>&1; then
  why=$(cat user-manager-start.txt)
  SANDBOX=unit
  step "SANDBOX=unit: $why"
  unit=/home/$U/.config/systemd/user/tap-uinput.service
  sed "s|@BINDIR@|$(dirname "$TAP_UINPUT_BIN")|g" "$REPO/systemd/tap-uinput.service.in" > "$unit"
  # A probe unit: the real unit's [Service] sandbox settings, the sandbox self-checks as ExecStart.
  { printf '[Service]\nType=oneshot\nStandardOutput=file:%s/probe.txt\nStandardError=inherit\n' "$RT"
    printf 'Environment=E2E_PYTHONPATH=%s E2E_PYTHON=%s\n' "${E2E_PYTHONPATH:-}" "${E2E_PYTHON:-python3}"
    printf 'ExecStart=/usr/bin/python3 -S %s/sandbox_exec.py --user %s --probe-only\n' "$INSTALLED" "$U"
    sed -n '/^\[Service\]/,/^\[/p' "$unit" | grep -E '^[A-Z][A-Za-z]+=' | grep -Ev '^(Type|ExecStart|ExecReload|Restart|RestartSec)='
  } > /home/$U/.config/systemd/user/tap-sandbox-probe.service
  # Logging only: the guest has no journal.
  mkdir -p "$unit.d"
  printf '[Service]\nStandardOutput=file:%s/daemon.log\nStandardError=inherit\n' "$RT" > "$unit.d/log.conf"
  chown -R "$U:$U" /home/$U/.config
  usystemctl daemon-reload
  usystemctl set-environment DBUS_SESSION_BUS_ADDRESS="unix:path=$RT/bus"
  if ! usystemctl start tap-sandbox-probe.service; then
    cat "$RT/probe.txt" 2>/dev/null
    usystemctl status tap-sandbox-probe.service --no-pager 2>&1 | head -n 20
    fail "the probe unit failed"
  fi
  cp "$RT/probe.txt" probe.txt
else
  SANDBOX=emulated
  why=$(cat user-manager-start.txt)
  step "SANDBOX=emulated: the systemd user manager does not run here ($why)"
  unshare --mount --propagation private -- "$PY" "$TOOLS/sandbox_exec.py" --user "$U" --probe > probe.txt 2>&1 \
    || fail "sandbox probe failed: $(cat probe.txt)"
fi
cat probe.txt
grep -q FAILED probe.txt && fail "the sandbox is not what the unit asks for ($SANDBOX)"
[ "$(grep -c ' ok' probe.txt)" -ge 12 ] || fail "sandbox probe incomplete"
step "ok: the unit's sandbox is in force ($SANDBOX)"

if [ "$SANDBOX" = unit ]; then
  usystemctl start tap-uinput.service || { usystemctl status tap-uinput.service --no-pager 2>&1 | head -n 20; fail "systemctl --user start tap-uinput.service failed"; }
  DAEMON_PID=$(usystemctl show -p MainPID --value tap-uinput.service)
  [ "${DAEMON_PID:-0}" -gt 0 ] || { usystemctl status tap-uinput.service --no-pager 2>&1 | head -n 20; cat "$RT/daemon.log"; fail "the unit has no main process"; }
  step "tap-uinput.service running, pid $DAEMON_PID, cgroup $(cat /proc/$DAEMON_PID/cgroup)"
else
  unshare --mount --propagation private -- "$PY" "$TOOLS/sandbox_exec.py" --user "$U" -- \
    /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/$U XDG_RUNTIME_DIR="$RT" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$RT/bus" "$TAP_UINPUT_BIN" run --log-level debug > "$OUT/daemon.log" 2>&1 &
  DAEMON_PID=$!
fi
wait_mode_since "$SCENARIO_T0" 60
types_again sandboxed

st=/proc/$DAEMON_PID/status
expect_eq "$(awk '/^Uid:/{print $2}' $st) $(awk '/^NoNewPrivs:/{print $2}' $st) $(awk '/^Seccomp:/{print $2}' $st) $(awk '/^CapEff:/{print $2}' $st)" \
  "$UID_U 1 2 0000000000000000" "runs as $U with NoNewPrivs, a seccomp filter and no capabilities"
# $REPO is the harness's own 9p share of the work tree (it exists only in this VM); under /tmp
# (a CI clone) it shows through the private /tmp. Everything else must be read-only.
rw=$(awk '$5 !~ "^/(dev|proc|sys)(/|$)" && $6 !~ /(^|,)ro(,|$)/ {print $5}' /proc/$DAEMON_PID/mountinfo | grep -vx -e /tmp -e /var/tmp -e "$REPO" | sort -u | tr '\n' ' ')
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
grep -q org.tapuinput.Daemon session-names.txt || fail "org.tapuinput.Daemon is not on the user's session bus: $(head session-names.txt)"
step "ok: org.tapuinput.Daemon on $U's session bus only"
as_user "$TAP_UINPUT_BIN" status > status.txt 2>&1 || fail "tap-uinput status as $U failed: $(cat status.txt)"
grep -q "$TAP_ADDR" status.txt || fail "status does not list the TAP: $(cat status.txt)"
step "ok: tap-uinput status over the session bus"

if [ "$SANDBOX" = unit ]; then
  step "SIGKILL the unit's daemon: Restart=on-failure brings it back"
  old=$DAEMON_PID t_kill=$(now)
  kill -KILL "$old"
  for _ in $(seq 100); do
    DAEMON_PID=$(usystemctl show -p MainPID --value tap-uinput.service)
    [ "${DAEMON_PID:-0}" -gt 0 ] && [ "$DAEMON_PID" != "$old" ] && break; sleep 0.2
  done
  [ "${DAEMON_PID:-0}" -gt 0 ] && [ "$DAEMON_PID" != "$old" ] || fail "the unit was not restarted after SIGKILL"
  step "ok: restarted as pid $DAEMON_PID after $(awk -v a="$t_kill" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}') s"
  wait_mode_since "$t_kill" 60
  types_again after-restart
  usystemctl stop tap-uinput.service
  expect_eq "$(usystemctl show -p ExecMainStatus --value tap-uinput.service) $(usystemctl show -p Result --value tap-uinput.service)" \
    "0 success" "systemctl --user stop: clean exit"
else
  stop_daemon
  expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
fi
wait_write nus_rx 030c0000 10
