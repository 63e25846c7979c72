#!/bin/sh
# Stage two inside the VM, running as PID 1 on the overlay root: set up a
# minimal system, load the NFS and CIFS modules, run /results/cmd, write its
# exit code, power off.
export PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mkdir -p /dev/pts /dev/shm && mount -t devpts devpts /dev/pts && mount -t tmpfs tmpfs /dev/shm
# /tmp is a plain directory on the root tmpfs, so exports below it need no
# second file system in the NFSv4 pseudo root.
mount -t tmpfs tmpfs /run
mkdir -p /run/rpcbind /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery
exec >>/results/guest.log 2>&1
echo "guest: kernel $(uname -r), $(nproc) CPUs"
ip link set lo up 2>/dev/null || busybox ip link set lo up
hostname fileshare-vm
# A kernel other than the host's brings its modules from elsewhere.
for a in $(cat /proc/cmdline); do
  case "$a" in fscsi.modules=*) mount --bind "${a#fscsi.modules=}" /lib/modules ;; esac
done
for m in sunrpc nfs nfsv3 nfsv4 cifs nfsd; do modprobe "$m" || echo "guest: modprobe $m failed"; done
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
. /results/env.sh
# The repository is visible unless it lives under /tmp, which the guest has
# fresh; commands that need only /results work from there.
cd "$REPO" 2>/dev/null || cd /results
set --
while IFS= read -r line; do set -- "$@" "$line"; done < /results/cmd
echo "guest: running $*"
"$@"
rc=$?
echo "guest: exit code $rc"
echo "$rc" > /results/exit-code
sync
echo o > /proc/sysrq-trigger
sleep 5
poweroff -f
