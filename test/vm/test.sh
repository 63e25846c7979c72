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
# The driver the images ship, built with their recipe (hack/gobuild).
go run ./hack/gobuild/cmd -o "$results/bin/fileshare-csi"
go test -c -o "$results/bin/integration.test" ./test/integration
echo "booting the test VM (kernel $(ls /lib/modules | sort -V | tail -1)); log: $results/integration.log"
set +e
# The guest's /tmp is its own: a repository under /tmp is not there, so
# what the tests read from it travels through the results share.
cp -r manifests "$results/manifests"
# The suite takes about 12 minutes under emulation on an idle machine
# (snapshots and clones copy trees through the VM's slow network stack),
# and ran out of 22 minutes once when builds and tests ran beside it on the
# host's two cores: the bounds leave room for that.
FILESHARE_DRIVER_BINARY=/results/bin/fileshare-csi FILESHARE_MANIFESTS=/results/manifests VM_TIMEOUT="${VM_TIMEOUT:-2100}" \
  "$repo/test/vm/run.sh" "$results" sh -c \
  'cd /results && exec /results/bin/integration.test -test.v -test.timeout 32m -ginkgo.no-color ${FILESHARE_TEST_FLAGS:-} > /results/integration.log 2>&1'
rc=$?
rot=""
rot_rc=0
if [ $rc -eq 0 ] && [ -z "${FILESHARE_TEST_FLAGS:-}" ]; then
  # SMB password rotation needs what the host's kernel lacks (CIFS
  # password2, Linux 6.12.2+): a second, short boot of Debian trixie's
  # kernel (test/vm/fetch-kernel.sh) runs those tests alone. The first boot
  # has checked that an older kernel refuses cleanly.
  rot="$results/rotation"
  mkdir -p "$rot" && cp -al "$results/bin" "$results/manifests" "$rot/"
  if kroot="$("$repo/test/vm/fetch-kernel.sh")"; then
    echo "booting the test VM again (kernel $(ls "$kroot/lib/modules")) for SMB password rotation; log: $rot/integration.log"
    FILESHARE_DRIVER_BINARY=/results/bin/fileshare-csi FILESHARE_MANIFESTS=/results/manifests VM_KERNEL_ROOT="$kroot" VM_TIMEOUT=600 \
      "$repo/test/vm/run.sh" "$rot" sh -c \
      'cd /results && exec /results/bin/integration.test -test.v -test.timeout 8m -ginkgo.no-color -test.run "^(TestSMBPasswordRotation|TestControllerTakesANewSMBPasswordAtOnce)$" > /results/integration.log 2>&1'
    rot_rc=$?
  else
    rot_rc=2
  fi
fi
set -e
# report DIR RC PREFIX: a boot's test summary, and its logs' tails if it
# failed.
report() {
  grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|^\s+--- |Ran [0-9]+ of|Passed|\[FAIL\]|_test.go:[0-9]+:' "$1/integration.log" 2>/dev/null | sed "s/^/$3/" || true
  if [ "$2" -ne 0 ]; then
    echo "---- ${3}integration.log (tail) ----"; tail -120 "$1/integration.log" || true
    echo "---- ${3}guest.log (tail) ----"; tail -40 "$1/guest.log" || true
  fi
}
report "$results" $rc ""
[ -z "$rot" ] || report "$rot" $rot_rc "[6.12] "
[ $rc -ne 0 ] && exit $rc
exit $rot_rc
