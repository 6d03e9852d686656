# Per-application keymaps end to end: the daemon reads ~/.config/tapuinput/*.toml, and a focus
# change pushed over its session-bus interface (`tap-uinput focus APP`, the same D-Bus call the
# GNOME extension and KWin script make) switches the index-finger chord from "e" to F5 for that
# app, and back to "e" when another app gets focus. Then a broken save of the app keymap is
# reported and the running keymap stays (inotify reload).
. "$E2E/lib/scenario.sh"
# On the guest's tmpfs, as a real config dir is on a local file system (inotify sees no
# changes on the 9p-shared work tree).
export XDG_CONFIG_HOME=/tmp/config-$SCENARIO
mkdir -p "$XDG_CONFIG_HOME/tapuinput"
cat > "$XDG_CONFIG_HOME/tapuinput/editor.toml" <<'TOML'
extends = "builtin"
name = "editor"
[match]
apps = ["editor"]
[layers.base]
".x..." = "f5"
TOML
start_daemon --log-level debug
start_reader keys.txt --min-devices 2 --count 6 --timeout 120
wait_write nus_rx 030c0001 60          # connected, subscribed, controller mode

tap_index() { tapctl notify tap 02000000 > /dev/null; }
tap_index                               # no focus yet: built-in keymap, "e" (waits its 300 ms window)
sleep 1
"$TAP_UINPUT_BIN" focus editor "main.c" || fail "tap-uinput focus editor failed"
sleep 1
tap_index                               # editor keymap: F5
sleep 1
"$TAP_UINPUT_BIN" focus terminal "bash" || fail "tap-uinput focus terminal failed"
sleep 1
tap_index                               # back to the built-in keymap: "e"
wait_reader keys.txt
expect_eq "$(cat keys.txt)" "KEY_E 1
KEY_E 0
KEY_F5 1
KEY_F5 0
KEY_E 1
KEY_E 0" "index typed e, then F5 in the editor, then e again"

# A broken save is reported with its position and changes nothing.
"$TAP_UINPUT_BIN" status > status.txt || fail "tap-uinput status failed"
printf 'extends = "builtin"\n[layers.base]\n".x..." = "f55"\n' > "$XDG_CONFIG_HOME/tapuinput/editor.toml"
for _ in $(seq 50); do grep -q 'editor.toml:3:' "$OUT/daemon.log" && break; sleep 0.2; done
grep -q 'editor.toml:3:' "$OUT/daemon.log" || fail "the broken keymap was not reported with its position"
step "ok: broken save reported as editor.toml:3:…"
start_reader keys2.txt --min-devices 2 --count 2 --timeout 60
"$TAP_UINPUT_BIN" focus editor "main.c"
sleep 1
tap_index
wait_reader keys2.txt
expect_eq "$(cat keys2.txt)" "KEY_F5 1
KEY_F5 0" "the last good editor keymap still applies"
stop_daemon
expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
