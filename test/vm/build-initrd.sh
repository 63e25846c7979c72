#!/usr/bin/env bash
# Builds a tiny initramfs: busybox, the modules needed to mount the host's
# root over virtio-9p with an overlay, and an init that switches to it and
# runs the guest script named on the kernel command line.
set -euo pipefail
# MODULES_ROOT (optional third argument) holds lib/modules/KVER for a kernel
# that is not the host's (test/vm/fetch-kernel.sh).
kver="$1"; out="$2"; modroot="${3:-}"
mods="$modroot/lib/modules/$kver/kernel"
busybox="$(command -v busybox)"
case "$(file -b "$busybox" 2>/dev/null || true)" in *dynamically*) echo "need busybox-static" >&2; exit 2;; esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/mods" "$work/proc" "$work/sys" "$work/dev" "$work/lower" "$work/upper" "$work/ovl" "$work/newroot"
cp "$busybox" "$work/bin/busybox"
# The modules to mount 9p and overlay, with what they need, in load order
# (busybox insmod resolves nothing): modules.dep lists a module's
# dependencies deepest last, so they load in reverse. Modules a kernel builds
# in are not in modules.dep and need no loading.
dep="$mods/../modules.dep"
[ -r "$dep" ] || { echo "no $dep: run depmod" >&2; exit 2; }
files=()
add() { # add PATH: the module file relative to lib/modules/KVER
  local f
  for f in "${files[@]}"; do [ "$f" = "$1" ] && return; done
  files+=("$1")
}
for m in virtio_pci 9pnet_virtio 9p overlay; do
  line="$(grep -E "/$m\.ko(\.[a-z]+)?:" "$dep" || true)"
  if [ -z "$line" ]; then
    grep -qE "/$m\.ko" "$mods/../modules.builtin" 2>/dev/null && continue
    echo "module $m not found in $dep" >&2; exit 2
  fi
  read -r -a needs <<< "${line#*:}"
  for ((i=${#needs[@]}-1; i>=0; i--)); do add "${needs[i]}"; done
  add "${line%%:*}"
done
order=""
for f in "${files[@]}"; do
  m="$(basename "$f")"; m="${m%%.ko*}"
  order="$order $m"
  case "$f" in
    *.ko.xz) xz -dc "$mods/../$f" > "$work/mods/$m.ko" ;;
    *.ko.zst) zstd -qdc "$mods/../$f" > "$work/mods/$m.ko" ;;
    *) cp "$mods/../$f" "$work/mods/$m.ko" ;;
  esac
done
cat > "$work/init" <<INIT
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs dev /dev
for m in $order; do /bin/busybox insmod /mods/\$m.ko || echo "insmod \$m failed"; done
/bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /lower || exec /bin/busybox sh
/bin/busybox mount -t tmpfs -o size=75% tmpfs /upper
/bin/busybox mkdir -p /upper/u /upper/w
/bin/busybox mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w /ovl || exec /bin/busybox sh
# The root itself is a tmpfs with the overlay's top-level directories bound
# in: the kernel NFS server can export a tmpfs (and build its NFSv4 pseudo
# root on it), but not an overlay of 9p.
/bin/busybox mount -t tmpfs -o size=50%,mode=0755 tmpfs /newroot
for e in /ovl/*; do
  n="\${e#/ovl/}"
  case "\$n" in
    proc|sys|dev|run|tmp|mnt|media|lost+found) /bin/busybox mkdir -p "/newroot/\$n" ;;
    *)
      if [ -L "\$e" ] || [ ! -d "\$e" ]; then /bin/busybox cp -a "\$e" "/newroot/\$n"
      else /bin/busybox mkdir -p "/newroot/\$n" && /bin/busybox mount --bind "\$e" "/newroot/\$n"; fi ;;
  esac
done
/bin/busybox chmod 1777 /newroot/tmp
# The results share carries the guest script and the binaries: the
# repository may live where the guest cannot see it (under /tmp).
/bin/busybox mkdir -p /newroot/results
/bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /newroot/results || exec /bin/busybox sh
guest=""
for a in \$(/bin/busybox cat /proc/cmdline); do
  case "\$a" in fscsi.guest=*) guest="\${a#fscsi.guest=}";; esac
done
/bin/busybox umount /proc
/bin/busybox mount --move /dev /newroot/dev
exec /bin/busybox switch_root /newroot /bin/sh "\$guest"
INIT
chmod +x "$work/init"
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
