# The Debian package (`make deb`, built by scripts/test before the VM starts) installed, checked and
# removed with the real dpkg in the guest: the files land where udev and systemd read them, the
# package's udev rule (not the harness's copy) tags /dev/uinput uaccess, the user unit is enabled
# for every user through deb-systemd-helper, the binary runs from /usr/bin without the Swift
# toolchain's libraries; `dpkg -r` removes the files and `dpkg -P` leaves nothing behind.
. "$E2E/lib/scenario.sh"
deb=$(ls "$REPO"/.build/deb/tap-uinput_*_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no package in .build/deb: run make deb (scripts/test does)"
version=$(dpkg-deb -f "$deb" Version)

# The harness installed the repository's rule under /etc, which would shadow the package's.
rm -f /etc/udev/rules.d/70-tap-uinput.rules
# man-db's trigger rebuilds the index of every man page on the 9p root: minutes under TCG, for
# nothing this test checks (the guest's root is a throw-away overlay). As man-db/auto-update=false.
rm -f /var/lib/man-db/auto-update
udevadm control --reload-rules
dpkg -i "$deb" > install.txt 2>&1 || fail "dpkg -i: $(tail -5 install.txt)"
dpkg -L tap-uinput > files.txt
step "ok: dpkg -i $(basename "$deb")"

expect_eq "$(/usr/bin/tap-uinput --version)" "$version" "/usr/bin/tap-uinput runs and reports the package version"
expect_eq "$(ldd /usr/bin/tap-uinput | grep -c -e swift -e Foundation -e '/opt/')" 0 \
  "the binary needs nothing from the Swift toolchain"
for f in /lib/udev/rules.d/70-tap-uinput.rules /usr/lib/systemd/user/tap-uinput.service \
         /usr/lib/modules-load.d/tap-uinput.conf /usr/share/man/man1/tap-uinput.1.gz \
         /usr/share/bash-completion/completions/tap-uinput /usr/share/tapuinput/default.toml \
         /usr/share/gnome-shell/extensions/tapuinput-focus@tapuinput.org/metadata.json \
         /usr/share/kwin/scripts/tapuinput-focus/metadata.json; do
  [ -f "$f" ] || fail "missing $f"
done
step "ok: rule, user unit, modules-load.d, man page, completions, keymap, desktop integrations installed"
grep -q '^ExecStart=/usr/bin/tap-uinput run$' /usr/lib/systemd/user/tap-uinput.service \
  || fail "the unit does not start /usr/bin/tap-uinput: $(grep ExecStart /usr/lib/systemd/user/tap-uinput.service)"
[ -L /etc/systemd/user/default.target.wants/tap-uinput.service ] \
  || fail "postinst did not enable the user unit for every user"
step "ok: user unit enabled globally (default.target.wants)"
udevadm test /sys/devices/virtual/misc/uinput > uinput.txt 2>&1 || true
grep -q "/lib/udev/rules.d/70-tap-uinput.rules" uinput.txt || fail "udevd did not read the package's rule"
grep -q "uaccess" uinput.txt || fail "the package's rule did not tag /dev/uinput uaccess"
step "ok: the package's udev rule tags /dev/uinput uaccess"
/usr/bin/tap-uinput check /usr/share/tapuinput/default.toml > check.txt 2>&1 || fail "check: $(cat check.txt)"

remove_and_purge_package

# Later scenarios expect the harness's rule.
cp "$REPO/udev/70-tap-uinput.rules" /etc/udev/rules.d/ && udevadm control --reload-rules
