#!/usr/bin/env bash
# Installs the real file servers that the integration tests and the demo run
# on loopback. Idempotent: does nothing when they are already there.
set -euo pipefail
need=()
command -v smbd >/dev/null || need+=(samba)
command -v smbclient >/dev/null || need+=(smbclient)
command -v ganesha.nfsd >/dev/null || need+=(nfs-ganesha)
[ -e /usr/lib/x86_64-linux-gnu/ganesha/libfsalvfs.so ] || [ -n "$(find /usr/lib -name 'libfsalvfs.so' -print -quit 2>/dev/null)" ] || need+=(nfs-ganesha-vfs)
command -v rpcbind >/dev/null || need+=(rpcbind)
command -v rpcinfo >/dev/null || need+=(rpcbind)
command -v showmount >/dev/null || need+=(nfs-common)
# The Kerberos tests' Samba AD domain controller (test/localservers/addc.go),
# without recommends: those bring libnss-winbind, which puts winbind in
# /etc/nsswitch.conf. krb5-user gives kinit and klist for checks by hand.
norec=()
command -v samba-tool >/dev/null && [ -e /usr/share/doc/samba-ad-dc ] || norec+=(samba-ad-dc)
command -v kinit >/dev/null || norec+=(krb5-user)
if [ "${1:-}" = vm ]; then
  # The test VM boots this Debian kernel and uses the host's root (read-only)
  # for its tools: kernel nfsd, mount.cifs, busybox for the initramfs.
  command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
  ls /boot/vmlinuz-* >/dev/null 2>&1 && [ -n "$(ls /lib/modules 2>/dev/null)" ] || need+=(linux-image-amd64)
  [ -x /bin/busybox ] && file -b /bin/busybox 2>/dev/null | grep -q static || need+=(busybox-static)
  command -v rpc.nfsd >/dev/null || need+=(nfs-kernel-server)
  command -v mount.cifs >/dev/null || need+=(cifs-utils)
  command -v cpio >/dev/null || need+=(cpio)
  command -v file >/dev/null || need+=(file)
  # test/vm/fetch-kernel.sh: the newer kernel for the SMB password rotation
  # tests is downloaded, unpacked and indexed without installing it.
  command -v curl >/dev/null || need+=(curl)
  command -v depmod >/dev/null || need+=(kmod)
  command -v xz >/dev/null || need+=(xz-utils)
fi
if [ "${1:-}" = krb5-node ]; then
  # make test-krb5-node: the guest runs on the host's root file system, so
  # what a Kerberos node mount needs is installed here: cifs.upcall (in
  # cifs-utils, above with vm) and the kernel's request-key (keyutils, which
  # cifs-utils only recommends); kinit and klist come with krb5-user above.
  [ -x /sbin/request-key ] || need+=(keyutils)
  command -v cifs.upcall >/dev/null || [ -x /usr/sbin/cifs.upcall ] || need+=(cifs-utils)
fi
if [ "${1:-}" = k8s ]; then
  # make test-k8s: etcd for the local control plane (kube-apiserver and
  # csi-provisioner are built from the Go module proxy by test/k8s/build.sh),
  # openssl for its service-account key.
  command -v etcd >/dev/null || need+=(etcd-server)
  command -v openssl >/dev/null || need+=(openssl)
fi
if [ "${1:-}" = node ]; then
  # make test-node: qemu hands the guest's apiserver connections to socat on
  # the host; the guest (which runs on the host's root file system) needs
  # iptables for the one Service address and the pods' masquerade.
  command -v socat >/dev/null || need+=(socat)
  command -v iptables >/dev/null || need+=(iptables)
fi
if [ ${#need[@]} -gt 0 ] || [ ${#norec[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "need root to install: ${need[*]} ${norec[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine's apt-daily may hold dpkg's lock at boot, and a mirror
  # in the middle of a sync fails an update: wait for the one, retry the other.
  lock=(-o DPkg::Lock::Timeout=600)
  for i in 1 2 3; do apt-get "${lock[@]}" update -qq && break; [ $i = 3 ] && exit 1; sleep $((i * 10)); done
  [ ${#need[@]} -eq 0 ] || apt-get "${lock[@]}" install -y -qq "${need[@]}" >/dev/null
  [ ${#norec[@]} -eq 0 ] || apt-get "${lock[@]}" install -y -qq --no-install-recommends "${norec[@]}" >/dev/null
fi
