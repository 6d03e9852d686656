#!/usr/bin/env bash
# Boots the e2e VM once: qemu (TCG) with the cached Debian kernel (PVH vmlinux), the busybox
# initramfs, the host root shared read-only over 9p (tmpfs overlay in the guest) and the work
# tree shared read-write at its host path. The guest runs vm/guest-init, which runs the
# scenarios and powers off; its exit code comes back through $OUT/guest-exit.
#   vm/launch.sh OUTDIR [SCENARIO...]
# Env: E2E_VM=systemd (systemd as PID 1: vm/systemd/, README), E2E_TIMEOUT (seconds, default 180 + each scenario's limit), E2E_MEM (MiB, default 2048), E2E_SMP (default 2),
#      E2E_VERBOSE=1 to follow the guest console on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
e2e=$(cd "$here/.." && pwd)
repo=$(cd "$e2e/../.." && pwd)
out=$1; shift
mkdir -p "$out"; out=$(cd "$out" && pwd)

kdir=$("$here/kernel.sh")
initrd=$("$here/initramfs.sh" "$kdir")

# Everything the guest needs to know, read by vm/guest-init from the shared work tree.
{
  echo "REPO=$repo"
  echo "E2E=$e2e"
  echo "OUT=$out"
  printf 'SCENARIOS=%q\n' "$*"
  printf 'E2E_PATH=%q\n' "$(dirname "$(python3 -c 'import sys; print(sys.executable)')"):$PATH"
  printf 'E2E_PYTHON=%q\n' "$(python3 -c 'import sys; print(sys.executable)')"
  # lib/py runs python with -S (no site start-up hooks: ~1 s per start under TCG) and these
  # directories on PYTHONPATH instead.
  printf 'E2E_PYTHONPATH=%q\n' "$(python3 -c 'import os, site; print(":".join(p for p in site.getsitepackages() + [site.getusersitepackages()] if os.path.isdir(p)))')"
  printf 'E2E_SCENARIO_TIMEOUT=%q\n' "${E2E_SCENARIO_TIMEOUT:-240}"
  # Every E2E_* knob set on the host reaches the guest (E2E_DEBUG, E2E_TRACE, E2E_UDEV, ...).
  for v in $(compgen -e | grep '^E2E_' | grep -v -e '^E2E_PATH$' -e '^E2E_PYTHON' ); do
    printf '%s=%q\n' "$v" "${!v}"
  done
} > "$out/guest.env"
rm -f "$out/guest-exit"

cmdline="console=ttyS0 quiet loglevel=4 panic=-1 mitigations=off tsc=reliable random.trust_cpu=on"
cmdline+=" e2e_repo=$repo e2e_kdir=$kdir e2e_init=$here/guest-init e2e_env=$out/guest.env"
if [ "${E2E_VM:-}" = systemd ]; then
  # systemd as PID 1 with the harness's target; the host's fstab and partitions are not the
  # guest's (the root is the 9p overlay), so the generators must not wait for their devices.
  cmdline+=" e2e_systemd=1 systemd.unit=e2e.target fstab=no systemd.gpt_auto=0 systemd.firstboot=0"
  cmdline+=" systemd.show_status=1"
  # sysinit.target's units the tests have no use for, each seconds under TCG.
  for u in systemd-binfmt systemd-timesyncd systemd-pstore apparmor systemd-journal-catalog-update \
           systemd-hwdb-update ldconfig systemd-update-done systemd-firstboot systemd-sysusers \
           systemd-machine-id-commit keyboard-setup console-setup systemd-random-seed; do
    cmdline+=" systemd.mask=$u.service"
  done
fi

# Default: 3 min of boot and set-up plus each scenario's own limit (lib/guest-setup.sh's
# scenario_limit: E2E_SCENARIO_TIMEOUT, or a larger `# e2e-timeout: SECONDS` in the script).
timeout=180
for s in "$@"; do
  own=$(sed -n 's/^# e2e-timeout: *\([0-9][0-9]*\) *$/\1/p' "$e2e/scenarios/$s.sh" 2>/dev/null | head -n1)
  limit=${E2E_SCENARIO_TIMEOUT:-240}
  [ -n "$own" ] && [ "$own" -gt "$limit" ] && limit=$own
  timeout=$(( timeout + limit ))
done
timeout=${E2E_TIMEOUT:-$timeout}
console=$out/console.log
: > "$console"
tailpid=
if [ "${E2E_VERBOSE:-0}" = 1 ]; then tail -n +1 -f "$console" >&2 & tailpid=$!; fi
set +e
timeout --kill-after=5 "$timeout" qemu-system-x86_64 \
  -accel tcg,thread=multi -machine pc -cpu max -m "${E2E_MEM:-2048}" -smp "${E2E_SMP:-2}" \
  -nodefaults -no-user-config -display none -no-reboot \
  -kernel "$kdir/vmlinux" -initrd "$initrd" -append "$cmdline" \
  -serial "file:$console" \
  -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
  -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
  -fsdev local,id=worktree,path="$repo",security_model=none \
  -device virtio-9p-pci,fsdev=worktree,mount_tag=worktree \
  -device virtio-rng-pci
qrc=$?
set -e
[ -n "$tailpid" ] && kill "$tailpid" 2>/dev/null
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
  echo "launch.sh: VM timed out after ${timeout}s (console: $console)" >&2
  exit 124
fi
if [ ! -f "$out/guest-exit" ]; then
  echo "launch.sh: the guest did not report an exit code (qemu rc $qrc; console: $console)" >&2
  tail -n 30 "$console" >&2
  exit 125
fi
exit "$(cat "$out/guest-exit")"
