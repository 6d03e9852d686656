#!/usr/bin/env bash
# Fetches Debian's linux-image-amd64 (the package it currently depends on) into the cache,
# extracts the raw vmlinux ELF (booted through PVH: no bzImage decompression under TCG) and
# the matching modules, and runs depmod on them. Idempotent: a cached kernel is reused.
#   vm/kernel.sh            prints the kernel directory (CACHE/kernel/VERSION)
# Env: E2E_CACHE (default Tests/e2e/cache), E2E_KERNEL_PKG (e.g. linux-image-6.1.0-56-amd64).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${E2E_CACHE:-$here/../cache}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# A finished extraction leaves cache/kernel/current -> VERSION; reuse it unless a package
# was asked for explicitly.
if [ -z "${E2E_KERNEL_PKG:-}" ] && [ -L "$cache/kernel/current" ] && [ -f "$cache/kernel/current/ready" ]; then
  readlink -f "$cache/kernel/current"; exit 0
fi

resolve() {
  apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}'
}
download() { # $1 = package; leaves the .deb in cache/debs
  mkdir -p "$cache/debs"
  ( cd "$cache/debs" && rm -f "$1"_*.deb && apt-get -o APT::Sandbox::User=root download "$1" >&2 )
}

pkg=${E2E_KERNEL_PKG:-}
[ -n "$pkg" ] || pkg=$(resolve)
if [ -z "$pkg" ]; then apt-get update -qq >&2; pkg=$(resolve); fi
[ -n "$pkg" ] || { echo "kernel.sh: cannot resolve linux-image-amd64" >&2; exit 1; }
version=${pkg#linux-image-}
kdir=$cache/kernel/$version
if [ ! -f "$kdir/ready" ]; then
  echo "kernel.sh: fetching $pkg" >&2
  if ! download "$pkg"; then
    # Stale package lists name a version the mirror no longer has: refresh and resolve again.
    apt-get update -qq >&2
    [ -n "${E2E_KERNEL_PKG:-}" ] || pkg=$(resolve)
    version=${pkg#linux-image-}
    kdir=$cache/kernel/$version
    download "$pkg"
  fi
fi
if [ -f "$kdir/ready" ]; then ln -sfn "$version" "$cache/kernel/current"; echo "$kdir"; exit 0; fi
deb=$(ls "$cache/debs/${pkg}"_*.deb | head -n1)

rm -rf "$kdir"; mkdir -p "$kdir/root"
dpkg-deb -x "$deb" "$kdir/root"
# The bzImage carries an xz stream; the PVH entry point is in the ELF inside it.
python3 - "$kdir/root/boot/vmlinuz-$version" "$kdir/vmlinux" <<'PY'
import lzma, sys
data = open(sys.argv[1], 'rb').read()
magic = b'\xfd7zXZ\x00'
pos = data.find(magic)
while pos >= 0:
    try:
        out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[pos:])
        if out[:4] == b'\x7fELF':
            open(sys.argv[2], 'wb').write(out)
            sys.exit(0)
    except lzma.LZMAError:
        pass
    pos = data.find(magic, pos + 1)
sys.exit('no xz-compressed ELF found in ' + sys.argv[1])
PY
depmod -b "$kdir/root" "$version"
rm -f "$deb"
touch "$kdir/ready"
ln -sfn "$version" "$cache/kernel/current"
echo "$kdir"
