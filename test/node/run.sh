#!/usr/bin/env bash
# make test-node: the driver on a real one-node cluster. The control plane
# (etcd, kube-apiserver, kube-controller-manager, kube-scheduler) runs on the
# host loopback; the test VM runs containerd, runc, the kubelet and the NFS
# and SMB servers (test/node/guestd). The driver is installed from its own
# images (make images) with `kubectl apply -k` of the quickstart through
# test/node/overlay; then claims and pods, Kubernetes' external storage e2e
# suite (a curated set per class; FILESHARE_E2E=full for all of it,
# FILESHARE_E2E=none for none), and an uninstall that must leave the node
# clean. Needs root.
#
# Everything built is cached outside the repository (test/k8s/build.sh,
# test/node/fetch-debs.sh, make images): a second run starts at once.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" != 0 ]; then
  echo "test-node starts a control plane and a VM: run it as root" >&2
  exit 1
fi

./hack/install-deps.sh vm
./hack/install-deps.sh k8s
./hack/install-deps.sh node

start=$SECONDS
bins=$(NODE=1 ./test/k8s/build.sh | sed -n 's/^BIN //p' | paste -sd: -)
[ -n "$bins" ] || { echo "test/k8s/build.sh produced no binaries" >&2; exit 1; }
runtime_root=$(./test/node/fetch-debs.sh | tail -1)
[ -x "$runtime_root/usr/bin/containerd" ] || { echo "test/node/fetch-debs.sh gave no containerd ($runtime_root)" >&2; exit 1; }
make --no-print-directory images ARCHES=amd64 IMAGES_FLAGS=-repin-missing >&2
echo "test-node: binaries, runtime and images ready in $((SECONDS - start)) s"

# Not under /tmp: the guest sees the host's files but has its own /tmp.
mkdir -p /var/tmp
work=$(mktemp -d /var/tmp/fileshare-node-XXXXXX)
chmod 755 "$work"

cleanup() {
  local rc=$? pid name
  if [ -f "$work/pids" ]; then
    while read -r pid name; do
      if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$name"; then
        echo "test-node: stopping leftover $name (pid $pid)" >&2
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      fi
    done <"$work/pids"
  fi
  # The VM is qemu under test/vm/run.sh under timeout(1), in a process group
  # of its own: find it by the directory it shares with the guest.
  pkill -KILL -f "qemu-system-x86_64 .*path=$work/vm" 2>/dev/null || true
  if [ "$rc" != 0 ]; then
    rm -rf /var/tmp/fileshare-node-logs && mkdir -p /var/tmp/fileshare-node-logs
    cp -r "$work"/*.log "$work"/vm/logs "$work"/vm/guest.log "$work"/vm/console.log /var/tmp/fileshare-node-logs/ 2>/dev/null || true
    echo "test-node failed; logs in /var/tmp/fileshare-node-logs" >&2
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$SECONDS
set +e
FILESHARE_NODE_BIN="$bins" FILESHARE_NODE_WORK="$work" FILESHARE_NODE_RUNTIME="$runtime_root" \
  FILESHARE_NODE_IMAGES="$PWD/bin/images" \
  flock -o /tmp/fileshare-vm.lock go test -count=1 -v -timeout 110m -parallel 3 ./test/node/ ${FILESHARE_TEST_FLAGS:-} 2>&1 | tee /tmp/fileshare-node.log
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" != 0 ]; then
  # What CI shows is the end of the output: the tests' last messages (and
  # the failure among them), after the summary and the logs.
  echo "test-node: the tests' last messages:"
  grep -E '^ +[a-z0-9_]+_test\.go:[0-9]+: ' /tmp/fileshare-node.log | cut -c1-400 | tail -n 12 || true
fi
echo "test-node: $( [ "$rc" = 0 ] && echo PASS || echo FAIL ) in $((SECONDS - start)) s (log: /tmp/fileshare-node.log)"
exit "$rc"
