#!/usr/bin/env bash
# Builds the busybox initramfs for the kernel in $1 (a vm/kernel.sh directory): static busybox,
# the modules needed to mount the host root (virtio-pci, 9p, overlay), and vm/init.
# Cached as KDIR/initramfs.cpio, rebuilt when vm/init or this script changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kdir=$1
version=$(basename "$kdir")
out=$kdir/initramfs.cpio
stamp=$(cat "$here/init" "$here/initramfs.sh" /bin/busybox | md5sum | cut -d' ' -f1)
if [ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then echo "$out"; exit 0; fi

busybox=/bin/busybox
# busybox-static's binary (the dynamic `busybox` package's would not run in the initramfs).
dpkg -s busybox-static >/dev/null 2>&1 && [ -x "$busybox" ] || {
  echo "initramfs.sh: busybox-static missing (scripts/deps test)" >&2; exit 1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,proc,sys,dev,mnt,newroot,modules}
cp "$busybox" "$tmp/bin/busybox"
cp "$here/init" "$tmp/init"; chmod +x "$tmp/init"
: > "$tmp/modules/order"
for m in virtio_pci 9pnet_virtio 9p overlay; do
  modprobe -d "$kdir/root" -S "$version" --show-depends "$m" | awk '$1=="insmod"{print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
  cp "$ko" "$tmp/modules/"; echo "$(basename "$ko")" >> "$tmp/modules/order"
done
( cd "$tmp" && find . | cpio -o -H newc --quiet ) > "$out.tmp"
mv "$out.tmp" "$out"; echo "$stamp" > "$out.stamp"
echo "$out"
