# Xorg (dummy video; input only by udev hot-plug through libinput, as on a desktop) with a focused
# full-screen Tk Text widget: the daemon, started without --layout, types "Quiz 42: why, jam
# boxes?" right for each X keyboard layout in E2E_LAYOUTS (default "us de fr", set as localectl
# does: an InputClass XkbLayout), and again after `setxkbmap` to each of E2E_LIVE_LAYOUTS (default
# "de fr") while it runs; the TAP's mouse packets move the X pointer.
. "$E2E/lib/scenario.sh"
. "$TOOLS/desktop_lib.sh"
need_daemon
export DISPLAY=:1
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
clear_text() { kill -USR1 "$TK_PID"; wait_for 5 "the Tk text to be cleared" test ! -s text.txt; }

first=1
for layout in ${E2E_LAYOUTS:-us de fr}; do
  start_x "$layout"
  start_typist xorg_has_keyboard
  clear_text
  type_sentence text.txt "XkbLayout $layout: the Tk window received the sentence"
  if [ "$first" = 1 ]; then
    first=0
    for live in ${E2E_LIVE_LAYOUTS:-de fr}; do
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
  stop_daemon
  expect_eq "$DAEMON_RC" 0 "clean exit on SIGTERM"
  mv daemon.log "daemon-$layout.log"
  stop_x
done
