#!/usr/bin/env bash
# make test-k8s: the quickstart manifests, the Helm chart and the driver
# against a real Kubernetes control plane on loopback (etcd, kube-apiserver,
# kube-controller-manager), with the real csi-provisioner, our controller,
# Samba and NFS-Ganesha. Needs root. The Kubernetes binaries are built once by
# test/k8s/build.sh and cached outside the repository.
#
# NFS-Ganesha binds the fixed ports 2049 and 111: the test waits while another
# run (make test-integration) holds them.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" != 0 ]; then
  echo "test-k8s starts smbd, rpcbind and NFS-Ganesha: run it as root" >&2
  exit 1
fi

./hack/install-deps.sh k8s

start=$SECONDS
bins=$(./test/k8s/build.sh | sed -n 's/^BIN //p' | paste -sd: -)
[ -n "$bins" ] || { echo "test/k8s/build.sh produced no binaries" >&2; exit 1; }
echo "test-k8s: Kubernetes binaries ready in $((SECONDS - start)) s ($bins)"

work=$(mktemp -d /tmp/fileshare-k8s-XXXXXX)
chmod 755 "$work"

# On any exit: kill whatever the test started and did not stop (the test
# records each pid with its program's name; a pid that now belongs to another
# program is left alone), keep the logs of a failed run, remove the rest.
cleanup() {
  local rc=$? pid name left=0
  if [ -f "$work/pids" ]; then
    while read -r pid name; do
      if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$name"; then
        echo "test-k8s: stopping leftover $name (pid $pid)" >&2
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
        left=1
      fi
    done <"$work/pids"
    if [ "$left" = 1 ]; then
      sleep 3
      while read -r pid name; do
        if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$name"; then
          kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
        fi
      done <"$work/pids"
    fi
  fi
  if [ "$rc" != 0 ]; then
    rm -rf /tmp/fileshare-k8s-logs && mkdir -p /tmp/fileshare-k8s-logs
    cp "$work"/*.log /tmp/fileshare-k8s-logs/ 2>/dev/null || true
    echo "test-k8s failed; process logs in /tmp/fileshare-k8s-logs" >&2
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$SECONDS
set +e
FILESHARE_K8S_BIN="$bins" FILESHARE_K8S_WORK="$work" \
  go test -count=1 -v -timeout 15m ./test/k8s/ 2>&1 | tee /tmp/fileshare-k8s.log
rc=${PIPESTATUS[0]}
set -e
echo "test-k8s: $( [ "$rc" = 0 ] && echo PASS || echo FAIL ) in $((SECONDS - start)) s (log: /tmp/fileshare-k8s.log)"
exit "$rc"
