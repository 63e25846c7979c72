#!/usr/bin/env bash
# make test-krb5-node: node mounts with sec=krb5 in the test VM. Starts the
# Samba AD domain controller of the integration suite on the host, in a
# network namespace of its own (test/krb5node/dc, test/localservers/addc.go),
# boots the test VM with a qemu user network, through which the guest reaches
# the DC at its namespace's address, and runs test/krb5node in the guest: the
# driver's node plugin with --krb5-host-tickets stages and publishes volumes of
# auth: krb5 classes, and the kernel's cifs.upcall finds root's ticket cache,
# which the test renews; then with --krb5-cache-uids the plugin keeps a
# cache of the Secret's principal for a uid of its own, which the mount
# names (cruid, upcall_target=mount). That needs what bookworm lacks: the
# guest boots Debian trixie's kernel (test/vm/fetch-kernel.sh) and uses
# trixie's cifs.upcall 7.4 (test/vm/fetch-cifs-utils.sh), both pinned by
# SHA-256 and unpacked into caches, nothing installed on the host. The DC is
# stopped when the VM is done, also on failure. Results and logs:
# /var/tmp/fileshare-krb5-node (VM_RESULTS).
#
# FILESHARE_KRB5_LIFETIME (default 3m) is the tickets' lifetime; the writer
# runs for 2.5 of them. Boot the VM alone: it takes both cores.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
[ "$(id -u)" = 0 ] || { echo "needs root: the DC's network namespace, the VM" >&2; exit 1; }
results="${VM_RESULTS:-/var/tmp/fileshare-krb5-node}"
dcdir="$results.dc"
ns=fileshare-krb5node
export FILESHARE_KRB5_LIFETIME="${FILESHARE_KRB5_LIFETIME:-3m}"
began=$(date +%s)

dcpid=""
# cleanup stops the DC (its own Stop removes the namespace) and whatever a
# DC that was killed left behind: its processes, its namespace.
cleanup() {
  if [ -n "$dcpid" ]; then
    kill -TERM "$dcpid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$dcpid" 2>/dev/null || break; sleep 1; done
    kill -KILL "$dcpid" 2>/dev/null || true
    wait "$dcpid" 2>/dev/null || true
    dcpid=""
  fi
  if ip netns list 2>/dev/null | grep -qw "^$ns"; then
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
    sleep 1
    ip netns del "$ns" 2>/dev/null || true
  fi
}
trap cleanup EXIT
cleanup

rm -rf "$results" "$dcdir"
mkdir -p "$results/bin" "$results/krb5" "$results/logs" "$dcdir"
# The AD users the shares map to must reach them.
chmod 755 "$dcdir"
# The driver the images ship (hack/gobuild), the test, and the DC's runner.
go run ./hack/gobuild/cmd -o "$results/bin/fileshare-csi"
go test -c -o "$results/bin/krb5node.test" ./test/krb5node
go build -o "$results/bin/dc" ./test/krb5node/dc
kroot="$("$repo/test/vm/fetch-kernel.sh")"
"$repo/test/vm/fetch-cifs-utils.sh" "$results/cifs-utils" | sed 's/^/cifs.upcall for the guest: /'

echo "starting the domain controller (namespace $ns); log: $results/logs/dc.log"
"$results/bin/dc" -dir "$dcdir" -out "$results/krb5" -ns "$ns" -timeout 45m > "$results/logs/dc.log" 2>&1 &
dcpid=$!
for _ in $(seq 1 180); do
  [ -e "$results/krb5/ready" ] && break
  if ! kill -0 "$dcpid" 2>/dev/null; then
    echo "the domain controller did not start:" >&2; cat "$results/logs/dc.log" >&2; exit 1
  fi
  sleep 1
done
[ -e "$results/krb5/ready" ] || { echo "the domain controller was not ready in 3 minutes" >&2; tail -50 "$results/logs/dc.log" >&2; exit 1; }
head -1 "$results/logs/dc.log"

echo "booting the test VM (kernel $(ls "$kroot/lib/modules" | sort -V | tail -1), tickets of $FILESHARE_KRB5_LIFETIME); log: $results/krb5node.log"
set +e
# qemu's user network, not restricted: the guest's connections leave through
# the host's sockets, so the DC's namespace address is reached through the
# host's veth; the guest routes that one address and nothing else.
FILESHARE_DRIVER_BINARY=/results/bin/fileshare-csi FILESHARE_CIFS_UPCALL=/results/cifs-utils/cifs.upcall \
  VM_ENV="FILESHARE_KRB5_LIFETIME FILESHARE_KRB5_POD FILESHARE_CIFS_UPCALL" VM_KERNEL_ROOT="$kroot" \
  VM_NIC="user,model=virtio-net-pci,net=10.0.2.0/24" VM_TIMEOUT="${VM_TIMEOUT:-1800}" \
  "$repo/test/vm/run.sh" "$results" sh -c \
  'cd /results && exec /results/bin/krb5node.test -test.v -test.timeout 25m ${FILESHARE_TEST_FLAGS:-} > /results/krb5node.log 2>&1'
rc=$?
set -e
cleanup
grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|^\s+--- |krb5node_test.go:[0-9]+:' "$results/krb5node.log" 2>/dev/null || true
if [ $rc -ne 0 ]; then
  echo "---- krb5node.log (tail) ----"; tail -60 "$results/krb5node.log" 2>/dev/null || true
  echo "---- guest.log (tail) ----"; tail -30 "$results/guest.log" 2>/dev/null || true
  echo "---- dc.log (tail) ----"; tail -30 "$results/logs/dc.log" 2>/dev/null || true
fi
echo "make test-krb5-node: exit $rc after $(( $(date +%s) - began )) s; logs in $results/logs"
exit $rc
