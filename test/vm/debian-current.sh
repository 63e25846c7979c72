#!/usr/bin/env bash
# Prints "package version pool-path sha256" of the newest package in Debian
# trixie's main/binary-amd64 index whose name matches the extended regular
# expression $1 (anchored), read over HTTPS. It is the test scripts' way past
# a pin the archive no longer serves: Debian's pool keeps one version of a
# package per release, so a point release or a new kernel drops the one
# before, and a test run should not fail on that day's archive (the
# SHA-256 still comes from the index, and the script says it moved on).
#
#   test/vm/debian-current.sh 'linux-image-[0-9.]+\+deb13-amd64'
set -euo pipefail
re="${1:?usage: debian-current.sh NAME-REGEX}"
mirror="${DEBIAN_MIRROR_HTTPS:-https://deb.debian.org/debian}"
best=""
while IFS=' ' read -r name version path sha; do
  if [ -z "$best" ] || dpkg --compare-versions "$version" gt "$(cut -d' ' -f2 <<<"$best")"; then
    best="$name $version $path $sha"
  fi
done < <(curl -fsSL --retry 3 "$mirror/dists/trixie/main/binary-amd64/Packages.xz" | xz -d |
  awk -v re="^($re)\$" '
    /^Package: /  { name = $2; version = path = sha = "" }
    /^Version: /  { version = $2 }
    /^Filename: / { path = $2 }
    /^SHA256: /   { sha = $2 }
    /^$/          { if (name ~ re && version != "" && path != "" && sha != "") print name, version, path, sha; name = "" }')
[ -n "$best" ] || { echo "debian-current: no package matches ^($re)\$ in trixie" >&2; exit 2; }
echo "$best"
