#!/usr/bin/env bash
# The container runtime of the test VM's node, from Debian: containerd, runc,
# the CNI plugins and busybox-static (the e2e suite's busybox image), for
# bookworm/amd64. They are downloaded with `apt-get download` and unpacked
# with `dpkg-deb -x` into a cache directory, never installed: the host's own
# packages and services stay as they are. The guest runs them from there
# (it sees the host's files read-only).
#
# Prints the root directory they are unpacked in (…/root/usr/bin/containerd)
# on its last line. Idempotent: a second run only prints it.
set -euo pipefail
RECIPE=r1
PACKAGES=(containerd runc containernetworking-plugins busybox-static)
cache=${K8S_CACHE:-/var/cache/fileshare-csi-k8s}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/fileshare-csi-k8s
fi
dir="$cache/debs-$RECIPE"
root="$dir/root"
if [ -f "$dir/done" ]; then
  echo "$root"
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/debs" "$root"
cd "$dir/debs"
if ! apt-get download "${PACKAGES[@]}" >&2; then
  apt-get update -qq >&2
  apt-get download "${PACKAGES[@]}" >&2
fi
for deb in ./*.deb; do
  dpkg-deb -x "$deb" "$root"
done
for f in usr/bin/containerd usr/bin/ctr usr/bin/containerd-shim-runc-v2 usr/sbin/runc usr/lib/cni/bridge usr/lib/cni/host-local usr/lib/cni/portmap bin/busybox; do
  [ -x "$root/$f" ] || { echo "fetch-debs: $f missing after unpacking ${PACKAGES[*]}" >&2; exit 1; }
done
ls "$dir/debs" > "$dir/done"
echo "$root"
