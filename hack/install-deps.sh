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
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "need root to install: ${need[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
