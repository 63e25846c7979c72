#!/usr/bin/env bash
# Fetches a newer Debian kernel for the tests that need what the host's
# bookworm kernel (6.1) lacks: CIFS `password2` and password changes on a live
# mount (Linux 6.10+, with the remount fixes of 6.12.2+), used by the SMB
# password rotation test. The package is Debian trixie's, pinned by version
# and SHA-256 in test/vm/kernel.lock, unpacked (no maintainer scripts run, the
# host's /boot and /lib/modules are untouched) into a cache with its module
# index built, and reused on later runs.
#
#   test/vm/fetch-kernel.sh        prints the unpacked root: ROOT/boot/vmlinuz-KVER,
#                                  ROOT/lib/modules/KVER
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
read -r pkg version sha256 < <(grep -v '^#' "$here/kernel.lock" | head -1)
cache="${FILESHARE_KERNEL_CACHE:-/var/cache/fileshare-csi-kernel}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
path="pool/main/l/linux-signed-amd64/${pkg}_${version}_amd64.deb"
if [ ! -r "$cache/${pkg#linux-image-}/.complete" ] && ! curl -fsSI --retry 3 -o /dev/null "$mirror/$path"; then
  # Debian's pool drops a kernel a while after its successor lands: then
  # the newest of the same flavour, with its SHA-256 from trixie's index.
  read -r pkg version path sha256 < <("$here/debian-current.sh" 'linux-image-[0-9.]+\+deb13-amd64')
  echo "fetch-kernel: WARNING: trixie no longer serves the kernel test/vm/kernel.lock pins; using $pkg $version (update the lock)" >&2
fi
kver="${pkg#linux-image-}"
root="$cache/$kver"
if [ -r "$root/.complete" ]; then echo "$root"; exit 0; fi

command -v depmod >/dev/null || { echo "depmod missing: apt-get install kmod" >&2; exit 2; }
mkdir -p "$cache"
deb="$cache/$(basename "$path")"
url="$mirror/$path"
if ! echo "$sha256  $deb" | sha256sum -c --quiet >/dev/null 2>&1; then
  # (quiet still prints a missing file to stdout, which is this script's answer)
  curl -fsSL --retry 3 -o "$deb.part" "$url" ||
    { echo "cannot download $url" >&2; exit 2; }
  echo "$sha256  $deb.part" | sha256sum -c --quiet ||
    { echo "$pkg: SHA-256 mismatch, refusing it" >&2; rm -f "$deb.part"; exit 2; }
  mv "$deb.part" "$deb"
fi
tmp="$(mktemp -d "$cache/.unpack-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
# trixie ships modules under /usr/lib; the guest and depmod look in /lib.
mkdir -p "$tmp/lib"
mv "$tmp/usr/lib/modules" "$tmp/lib/modules"
depmod -b "$tmp" "$kver"
rm -rf "$root"
mv "$tmp" "$root"
trap - EXIT
touch "$root/.complete"
echo "$root"
