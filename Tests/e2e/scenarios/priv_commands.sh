# Keymap `run` actions and their guards, end to end. The pinky runs a program with an argv full
# of shell syntax. It runs when the keymap says `allow-commands = true` and the file is owned by
# the daemon's user with mode 0600; it is refused (nothing runs, the refusal is logged) when the
# file is group- or world-writable or owned by another user (checked on every run, so the same
# daemon sees the chmod/chown); a keymap with `run` but without `allow-commands` does not load
# (positioned error, exit non-zero). No shell: `;`, `$(...)`, backquotes and globs reach the
# program literally.
. "$E2E/lib/scenario.sh"
. "$TOOLS/fault_lib.sh"
D=/tmp/priv_commands          # guest tmpfs: real ownership and modes (the work tree is 9p)
rm -rf "$D"; mkdir -p "$D"; chmod 755 "$D"
cat > "$D/dump" <<'SH'
#!/bin/sh
# Writes its argv, one per line, to a new numbered file: the marker that it ran.
n=$(ls /tmp/priv_commands/ran.* 2>/dev/null | wc -l)
printf '%s\n' "$@" > "/tmp/priv_commands/ran.$((n + 1))"
SH
chmod 755 "$D/dump"
cat > "$D/keymap.toml" <<'TOML'
name = "commands"
extends = "builtin"
[options]
allow-commands = true
[layers.base]
"....x" = { run = ["/tmp/priv_commands/dump", "a; touch /tmp/priv_commands/injected", "$(touch /tmp/priv_commands/subst)", "`touch /tmp/priv_commands/bq`", "*", "$HOME"] }
TOML
chmod 600 "$D/keymap.toml"
ran() { ls "$D"/ran.* 2>/dev/null | wc -l; }
pinky() { tapctl notify tap 10000000 > /dev/null; }

start_daemon --log-level debug --keymap "$D/keymap.toml"
wait_mode_since "$SCENARIO_T0" 60

step "0600, owned by the daemon's user: runs"
pinky
for _ in $(seq 50); do [ "$(ran)" -ge 1 ] && break; sleep 0.1; done
expect_eq "$(ran)" 1 "the command ran once"
expect_eq "$(cat "$D/ran.1")" 'a; touch /tmp/priv_commands/injected
$(touch /tmp/priv_commands/subst)
`touch /tmp/priv_commands/bq`
*
$HOME' "argv passed literally"
for f in injected subst bq; do [ ! -e "$D/$f" ] || fail "a shell ran: $D/$f exists"; done
step "ok: no shell (no ;-chaining, \$(...), backquotes, globbing or expansion)"

refused() {  # refused WHAT PATTERN
  local before; before=$(grep -c "not run" "$OUT/daemon.log" || true)
  pinky
  for _ in $(seq 50); do [ "$(grep -c "not run" "$OUT/daemon.log" || true)" -gt "$before" ] && break; sleep 0.1; done
  grep "not run" "$OUT/daemon.log" | tail -n 1 | grep -q "$2" || fail "$1: no refusal matching /$2/ logged: $(grep 'not run' "$OUT/daemon.log" | tail -n 1)"
  sleep 0.5
  expect_eq "$(ran)" 1 "$1: refused, nothing ran ($(grep 'not run' "$OUT/daemon.log" | tail -n 1 | sed 's/.*not run: //'))"
}
chmod 620 "$D/keymap.toml"; refused "group-writable" "writable by group or others"
chmod 602 "$D/keymap.toml"; refused "world-writable" "writable by group or others"
chmod 600 "$D/keymap.toml"; chown nobody "$D/keymap.toml"; refused "owned by nobody" "owned by uid 65534"
chown root "$D/keymap.toml"
pinky
for _ in $(seq 50); do [ "$(ran)" -ge 2 ] && break; sleep 0.1; done
expect_eq "$(ran)" 2 "back to 0600 and owned by root: runs again"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"

step "allow-commands = false: the keymap does not load"
sed 's/allow-commands = true/allow-commands = false/' "$D/keymap.toml" > "$D/off.toml"
chmod 600 "$D/off.toml"
rc=0; timeout 20 "$TAP_UINPUT_BIN" run --keymap "$D/off.toml" > off.log 2>&1 || rc=$?
cat off.log
[ "$rc" -ne 0 ] || fail "the daemon started with a run binding and allow-commands = false"
grep -Eq "off.toml:6:[0-9]+: error: this keymap runs a command, but commands are disabled" off.log \
  || fail "no positioned error for run without allow-commands"
step "ok: refused to load with a positioned error at off.toml:6 (exit $rc)"
expect_eq "$(ran)" 2 "nothing ran"
