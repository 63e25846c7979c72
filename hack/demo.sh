#!/usr/bin/env bash
# make demo: the driver's main job, against real servers on loopback. Where
# this kernel can mount NFS and CIFS, it runs here; where it cannot (as on
# the development machines), it runs inside the test VM so the node part
# makes real mounts too.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
if grep -qw nfs /proc/filesystems && grep -qw cifs /proc/filesystems; then
  exec go run ./test/demo -node
fi
echo "this kernel has no NFS or CIFS client: running the demo inside the test VM (about a minute)"
./hack/install-deps.sh vm
results="${VM_RESULTS:-/var/tmp/fileshare-demo-vm}"
rm -rf "$results"; mkdir -p "$results/bin"
# Built on the host with the images' recipe (hack/gobuild): compiling under
# emulation takes minutes.
go run ./hack/gobuild/cmd -o "$results/bin/fileshare-csi"
go run ./hack/gobuild/cmd -o "$results/bin/demo" ./test/demo
set +e
./test/vm/run.sh "$results" sh -c '/results/bin/demo -node -driver /results/bin/fileshare-csi > /results/demo.log 2>&1'
rc=$?
set -e
cat "$results/demo.log" 2>/dev/null || tail -40 "$results/guest.log"
exit $rc
