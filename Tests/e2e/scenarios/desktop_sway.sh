# sway 1.7 (headless output, input from libinput on a seatd seat, run as an unprivileged user in
# group input) with foot focused, running `cat` on a raw tty into a file: the daemon, started with
# SWAYSOCK and without --layout, types "Quiz 42: why, jam?" right for each layout in
# E2E_LAYOUTS (default "us de", `input type:keyboard xkb_layout` in sway's config), and again
# after `swaymsg input type:keyboard xkb_layout` to each of E2E_LIVE_LAYOUTS (default "fr").
. "$E2E/lib/scenario.sh"
. "$TOOLS/desktop_lib.sh"
need_daemon
user=tapdesk
id -u "$user" > /dev/null 2>&1 || useradd -M -N -G input -d /nonexistent "$user"
uid=$(id -u "$user")
run=/run/user/$uid text=/run/user/$uid/text.txt
mkdir -p "$run" && chown "$user" "$run" && chmod 700 "$run"
seatd -g input > seatd.log 2>&1 &
wait_for 10 "seatd" test -S /run/seatd.sock
foot_gone() { ! pgrep -u "$uid" -x cat; }
sway_has_keyboard() { swaymsg -r -t get_inputs | grep -q '"name": "TapUinput keyboard"'; }

start_sway() {  # LAYOUT
  cat > "$run/config" <<CONF
output HEADLESS-1 resolution 800x600
input type:keyboard xkb_layout $1
default_border none
exec foot sh -c 'stty -icanon -echo; exec cat >> $text'
CONF
  rm -f "$run"/sway-ipc.*.sock
  : > "$text" && chown "$user" "$text" "$run/config"
  setpriv --reuid="$uid" --regid="$(id -g "$user")" --init-groups \
    env -i PATH="$PATH" HOME="$run" XDG_RUNTIME_DIR="$run" LIBSEAT_BACKEND=seatd \
    WLR_BACKENDS=headless,libinput WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    sway -c "$run/config" > "$OUT/sway-$1.log" 2>&1 &
  SWAY_PID=$!
  wait_for 30 "sway's IPC socket" compgen -G "$run/sway-ipc.*.sock"
  SWAYSOCK=$(compgen -G "$run/sway-ipc.*.sock"); export SWAYSOCK
  wait_for 30 "foot running cat" pgrep -u "$uid" -x cat
  swaymsg -r -t get_tree | grep -q '"app_id": "foot"' || fail "no foot window in sway's tree"
  step "sway (xkb_layout $1) is up with foot focused"
}

first=1
for layout in ${E2E_LAYOUTS:-us de}; do
  start_sway "$layout"
  start_typist sway sway_has_keyboard
  type_sentence "$text" "xkb_layout $layout: foot received the sentence"
  if [ "$first" = 1 ]; then
    first=0
    for live in ${E2E_LIVE_LAYOUTS-fr}; do
      swaymsg input type:keyboard xkb_layout "$live" > /dev/null
      step "swaymsg input type:keyboard xkb_layout $live: $(swaymsg -r -t get_inputs | grep -m1 -o '"xkb_active_layout_name": "[^"]*"')"
      : > "$text"
      type_sentence "$text" "after switching sway to $live (daemon running): foot received the sentence"
    done
  fi
  stop_typist "$layout"
  kill "$SWAY_PID"; wait "$SWAY_PID" || true
  wait_for 10 "foot to quit with sway" foot_gone
done
