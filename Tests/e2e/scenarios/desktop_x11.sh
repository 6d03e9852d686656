# Xorg (dummy video; input only by udev hot-plug through libinput, as on a desktop) with a focused
# full-screen Tk Text widget: the daemon, started without --layout, types "Quiz 42: why, jam?"
# right for each X keyboard layout in E2E_LAYOUTS (default "us de fr", set as localectl does: an
# InputClass XkbLayout), and again after `setxkbmap` to each of E2E_LIVE_LAYOUTS (default "de fr")
# while it runs; the TAP's mouse packets move the X pointer. Then two layouts "us,de" with the
# second one active (XKB group locked, as a desktop's layout switcher does) before the TAP's
# keyboard appears, and the first one locked again while the daemon runs. The keymap extends the
# built-in one with two `text` actions, "äöüß€" and "éèàç€": on de and on fr both arrive exactly,
# each character by its own key, with AltGr (€: not KEY_EURO, a keycode X11 cannot carry) or
# through a dead key (é on de, ä on fr), composed by Tk as by any X application.
# e2e-timeout: 480
# (about 130 s on an idle host; twice that while the host builds)
. "$E2E/lib/scenario.sh"
. "$TOOLS/desktop_lib.sh"
need_daemon
export DISPLAY=:1
export XDG_CONFIG_HOME=$OUT/config   # the daemon's keymap (and `tap-uinput status` alike)
mkdir -p "$XDG_CONFIG_HOME/tapuinput"
printf 'extends = "builtin"\n[layers.base]\n"xxxx." = { text = "äöüß€" }\n"xx.xx" = { text = "éèàç€" }\n' \
  > "$XDG_CONFIG_HOME/tapuinput/keymap.toml"
declare -A TEXT=([de]="äöüß€éèàç€" [fr]="äöüß€éèàç€")
xorg_has_keyboard() { grep -q 'XINPUT: Adding extended input device "TapUinput keyboard"' "$XLOG"; }

start_x() {  # LAYOUT
  mkdir -p /etc/X11/xorg.conf.d
  printf 'Section "InputClass"\n  Identifier "system-keyboard"\n  MatchIsKeyboard "on"\n  Option "XkbLayout" "%s"\nEndSection\n' \
    "$1" > /etc/X11/xorg.conf.d/00-keyboard.conf
  XLOG=$OUT/Xorg-$1.log
  Xorg :1 -config "$TOOLS/xorg-dummy.conf" -noreset -nolisten tcp -logfile "$XLOG" > /dev/null 2>&1 &
  XORG_PID=$!
  wait_for 30 "Xorg on :1" xdotool getmouselocation
  : > tk.log
  /usr/bin/python3 -S "$TOOLS/tk_text.py" "$OUT/text.txt" > tk.log 2>&1 &
  TK_PID=$!
  wait_for 30 "the Tk window" grep -q ready tk.log
  step "Xorg (XkbLayout $1) and the focused Tk window are up"
}
stop_x() { kill "$TK_PID" "$XORG_PID"; wait "$TK_PID" "$XORG_PID" || true; }
xkb_group() { /usr/bin/python3 -S "$TOOLS/xkb_group.py" "$1"; }
clear_text() { kill -USR1 "$TK_PID"; wait_for 5 "the Tk text to be cleared" test ! -s text.txt; }

first=1
for layout in ${E2E_LAYOUTS:-us de fr}; do
  start_x "$layout"
  start_typist x11 xorg_has_keyboard
  clear_text
  type_sentence text.txt "XkbLayout $layout: the Tk window received the sentence"
  if [ -n "${TEXT[$layout]+set}" ]; then
    clear_text
    tap_play desktop_text.tap
    tap_wait_done 30
    wait_for 10 "the text actions' characters" test -s text.txt
    sleep 0.5
    expect_eq "$(cat text.txt)" "${TEXT[$layout]}" "XkbLayout $layout: the text actions arrived as their characters"
  fi
  if [ "$first" = 1 ]; then
    first=0
    for live in ${E2E_LIVE_LAYOUTS-de fr}; do
      setxkbmap "$live"
      step "setxkbmap $live: $(setxkbmap -query | grep layout)"
      clear_text
      type_sentence text.txt "after setxkbmap $live (daemon running): the Tk window received the sentence"
    done
    eval "$(xdotool getmouselocation --shell)"; x0=$X y0=$Y
    tapctl notify mouse 000a00f6ff0000000001 > /dev/null
    tapctl notify mouse 000a00f6ff0000000001 > /dev/null
    sleep 1
    eval "$(xdotool getmouselocation --shell)"
    [ "$X" -gt "$x0" ] && [ "$Y" -lt "$y0" ] || fail "pointer at $X,$Y after two moves right and up from $x0,$y0"
    [ -s text.txt.motion ] || fail "the Tk window saw no motion event"
    step "ok: the X pointer moved right and up, $x0,$y0 -> $X,$Y; Tk saw motion events"
  fi
  stop_typist "$layout"
  stop_x
done

start_x us,de
setxkbmap -layout us,de   # what a session does at login: the core keyboard gets both groups too
expect_eq "$(xkb_group 1)" 1 "XkbLayout us,de, group 2 (de) locked before the daemon starts"
start_typist x11 xorg_has_keyboard
clear_text
type_sentence text.txt "us,de with de locked first: the Tk window received the sentence"
expect_eq "$(xkb_group 0)" 0 "group 1 (us) locked while the daemon runs"
clear_text
type_sentence text.txt "us,de, then us locked (daemon running): the Tk window received the sentence"
stop_typist us,de
stop_x
