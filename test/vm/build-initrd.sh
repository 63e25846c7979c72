#!/usr/bin/env bash
# Builds a tiny initramfs: busybox, the modules needed to mount the host's
# root over virtio-9p with an overlay, and an init that switches to it and
# runs the guest script named on the kernel command line.
set -euo pipefail
kver="$1"; out="$2"
mods="/lib/modules/$kver/kernel"
busybox="$(command -v busybox)"
case "$(file -b "$busybox" 2>/dev/null || true)" in *dynamically*) echo "need busybox-static" >&2; exit 2;; esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/mods" "$work/proc" "$work/sys" "$work/dev" "$work/lower" "$work/upper" "$work/ovl" "$work/newroot"
cp "$busybox" "$work/bin/busybox"
order="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay"
for m in $order; do
  f="$(find "$mods" -name "$m.ko*" | head -1)"
  [ -n "$f" ] || { echo "module $m not found under $mods" >&2; exit 2; }
  case "$f" in
    *.ko.xz) xz -dc "$f" > "$work/mods/$m.ko" ;;
    *.ko.zst) zstd -qdc "$f" > "$work/mods/$m.ko" ;;
    *) cp "$f" "$work/mods/$m.ko" ;;
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
