#!/usr/bin/env bash
# make test-vm: builds the driver and the integration test binary on the
# host, boots the test VM, and runs the whole integration suite inside it
# against the kernel NFS server and Samba, with real NFS and CIFS mounts.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
results="${VM_RESULTS:-/var/tmp/fileshare-vm-results}"
rm -rf "$results"
mkdir -p "$results/bin"
go build -o "$results/bin/fileshare-csi" ./cmd/fileshare-csi
go test -c -o "$results/bin/integration.test" ./test/integration
echo "booting the test VM (kernel $(ls /lib/modules | sort -V | tail -1)); log: $results/integration.log"
set +e
# The guest's /tmp is its own: a repository under /tmp is not there, so
# what the tests read from it travels through the results share.
cp -r manifests "$results/manifests"
FILESHARE_DRIVER_BINARY=/results/bin/fileshare-csi FILESHARE_MANIFESTS=/results/manifests \
  "$repo/test/vm/run.sh" "$results" sh -c \
  'cd /results && exec /results/bin/integration.test -test.v -test.timeout 13m -ginkgo.no-color ${FILESHARE_TEST_FLAGS:-} > /results/integration.log 2>&1'
rc=$?
set -e
grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|^\s+--- |Ran [0-9]+ of|Passed|\[FAIL\]|_test.go:[0-9]+:' "$results/integration.log" || true
if [ $rc -ne 0 ]; then
  echo "---- integration.log (tail) ----"; tail -120 "$results/integration.log" || true
  echo "---- guest.log (tail) ----"; tail -40 "$results/guest.log" || true
fi
exit $rc
