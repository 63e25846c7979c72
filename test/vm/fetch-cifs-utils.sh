#!/usr/bin/env bash
# Fetches a cifs.upcall that understands the kernel's upcall_target=mount
# (cifs-utils 7.2 or later) for make test-krb5-node, whose guest runs on the
# host's bookworm root, where cifs-utils is 7.0. The packages are Debian
# trixie's, pinned by version and SHA-256 in test/vm/cifs-utils.lock, and
# unpacked (no maintainer scripts, nothing installed on the host) into a
# cache. trixie's cifs.upcall needs glibc 2.38, so it runs under trixie's own
# dynamic loader with trixie's libc first on its library path; its other
# libraries (MIT krb5, keyutils, talloc, libcap-ng) are the host's, older
# than its build's but within the versions its package asks for.
#
#   test/vm/fetch-cifs-utils.sh DIR   unpacks into DIR/root and writes
#                                     DIR/cifs.upcall, the command a
#                                     request-key line names (by an absolute
#                                     path: it finds the tree beside itself)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: fetch-cifs-utils.sh DIR}"
cache="${FILESHARE_CIFS_UTILS_CACHE:-/var/cache/fileshare-csi-cifs-utils}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
mkdir -p "$cache"
debs=()
while read -r pkg version path sha256; do
  deb="$cache/$(basename "$path")"
  if ! echo "$sha256  $deb" | sha256sum -c --quiet >/dev/null 2>&1 && ! curl -fsSI --retry 3 -o /dev/null "$mirror/$path"; then
    # A point release dropped the pin: the newest, SHA-256 from the index.
    read -r pkg version path sha256 < <("$here/debian-current.sh" "$pkg")
    echo "fetch-cifs-utils: WARNING: trixie no longer serves the pin of test/vm/cifs-utils.lock; using $pkg $version (update the lock)" >&2
    deb="$cache/$(basename "$path")"
  fi
  if ! echo "$sha256  $deb" | sha256sum -c --quiet >/dev/null 2>&1; then
    curl -fsSL --retry 3 -o "$deb.part" "$mirror/$path" ||
      { echo "cannot download $mirror/$path" >&2; exit 2; }
    echo "$sha256  $deb.part" | sha256sum -c --quiet ||
      { echo "$pkg $version: SHA-256 mismatch, refusing it" >&2; rm -f "$deb.part"; exit 2; }
    mv "$deb.part" "$deb"
  fi
  debs+=("$deb")
done < <(grep -v '^#' "$here/cifs-utils.lock")
rm -rf "$out/root"
mkdir -p "$out/root"
for d in "${debs[@]}"; do dpkg-deb -x "$d" "$out/root"; done
cat > "$out/cifs.upcall" <<'WRAP'
#!/bin/sh
# trixie's cifs.upcall under trixie's loader and libc (test/vm/fetch-cifs-utils.sh)
root="${0%/*}/root"
lib="$root/usr/lib/x86_64-linux-gnu"
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$root/usr/sbin/cifs.upcall" "$@"
WRAP
chmod 755 "$out/cifs.upcall"
# It must run here, on the host's libraries, before a guest depends on it.
v="$("$(cd "$out" && pwd)/cifs.upcall" --version 2>&1)" || { echo "trixie's cifs.upcall does not run on this host: $v" >&2; exit 2; }
echo "$v"
