#!/usr/bin/env bash
# make bench: runs test/bench on the host (Samba and NFS-Ganesha, user space
# only: this kernel may not mount) and inside the test VM (kernel nfsd and
# Samba, where the mount-based baselines run too), then writes both tables and
# the machine they ran on to docs/benchmarks.md.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
results="${BENCH_RESULTS:-/var/tmp/fileshare-bench}"
# BENCH_ASSEMBLE_ONLY=1 rewrites docs/benchmarks.md from the last run's tables.
# BENCH_ONLY=GROUPS runs only those row groups (see test/bench -only), on the
# host and in the VM, and prints them without touching docs/benchmarks.md:
# for iterating on one kind of row, e.g. BENCH_ONLY=snapshots. With
# BENCH_UPDATE=1 it replaces just those rows in docs/benchmarks.md.
only=()
[ -n "${BENCH_ONLY:-}" ] && only=(-only "$BENCH_ONLY")
if [ -z "${BENCH_ASSEMBLE_ONLY:-}" ]; then
./hack/install-deps.sh vm
rm -rf "$results"; mkdir -p "$results/bin"
# The driver the images ship, built with their recipe (hack/gobuild).
go run ./hack/gobuild/cmd -o "$results/bin/fileshare-csi"
go run ./hack/gobuild/cmd -o "$results/bin/bench" ./test/bench
args=(${BENCH_ARGS:-} "${only[@]}")

echo "== host: user-space rows against Samba and NFS-Ganesha"
"$results/bin/bench" -driver "$results/bin/fileshare-csi" -where host -o "$results/host.md" "${args[@]}"

echo "== test VM: kernel nfsd, Samba, and the mount(8) baselines"
# Under emulation every mount takes about a second: fewer operations there.
# Samba under emulation deletes about 30 files/s, so its tree is smaller there.
printf '%s ' ${VM_BENCH_ARGS:--ops 40 -clients 16 -smb-tree-files 2000 -usage-files 1000000} "${only[@]}" > "$results/args"
# The snapshot rows keep a 1 GiB file, its snapshot and one copy at once in
# the VM's memory-backed disk (half the VM's memory): the VM gets 10 GiB.
VM_MEMORY="${VM_MEMORY:-10240}" VM_TIMEOUT="${VM_TIMEOUT:-7200}" ./test/vm/run.sh "$results" sh -c \
  '/results/bin/bench -driver /results/bin/fileshare-csi -where VM -o /results/vm.md $(cat /results/args) > /results/bench-vm.log 2>&1' \
  || { tail -40 "$results/bench-vm.log"; exit 1; }
cat "$results/vm.md"
fi
if [ -n "${BENCH_ONLY:-}" ]; then
  if [ -z "${BENCH_UPDATE:-}" ]; then
    echo "BENCH_ONLY: docs/benchmarks.md left as it is (BENCH_UPDATE=1 replaces the rows measured now and adds new ones)"
    exit 0
  fi
  # Each row measured now replaces the row of the same place, name, server
  # and way in docs/benchmarks.md, and a row not there yet joins the end of
  # its place's table; a side table (a header "| where: ...") replaces the
  # one of the same header, or joins the end of its place's section. A row
  # and its baseline always come from one run, so every ratio stays a
  # same-run ratio. A line under the header says which rows were measured
  # again, when, and on what.
  stamp="Re-measured with \`BENCH_ONLY=$BENCH_ONLY\` ($(printf '%s ' ${BENCH_ARGS:-})/ VM: $(cat "$results/args")) on $(date -u +%Y-%m-%d), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)): those rows and their baselines are from that run."
  awk -F'|' -v stamp="$stamp" '
    function flushRows(place,   i, k) {
      for (i = 1; i <= n; i++) { k = order[i]; if (!(k in used) && rowPlace[k] == place) { print row[k]; used[k] = 1 } }
    }
    function flushTables(place,   i, h) {
      for (i = 1; i <= nt; i++) { h = torder[i]; if (!(h in tused) && tplace[h] == place) { print table[h]; print ""; tused[h] = 1 } }
    }
    FNR == NR {
      if ($0 ~ /^\| (host|VM) \|/) { k = $2 FS $3 FS $4 FS $5; row[k] = $0; order[++n] = k; rowPlace[k] = $2; cur = ""; next }
      if ($0 ~ /^\| where: /) { cur = $0; table[cur] = $0; torder[++nt] = cur; tplace[cur] = ($2 ~ /^ where: host/) ? " host " : " VM "; next }
      if (cur != "" && $0 ~ /^\|/) { table[cur] = table[cur] "\n" $0; next }
      cur = ""; next
    }
    skipping && /^\|/ { next }
    { skipping = 0 }
    /^## Host/ { print stamp; print ""; section = " host " }
    /^## Test VM/ { flushTables(section); section = " VM " }
    /^## Reading the numbers/ { flushTables(section); section = "" }
    /^\| (host|VM) \|/ { last = $2; k = $2 FS $3 FS $4 FS $5; if (k in row) { print row[k]; used[k] = 1; next } print; next }
    last != "" { flushRows(last); last = "" }
    /^\| where: / && ($0 in table) { print table[$0]; tused[$0] = 1; skipping = 1; next }
    { print }
    END { flushRows(last); flushTables(section) }' <(cat "$results/host.md" "$results/vm.md") docs/benchmarks.md > docs/benchmarks.md.new
  mv docs/benchmarks.md.new docs/benchmarks.md
  echo "replaced the measured rows in docs/benchmarks.md, and added the new ones"
  exit 0
fi

out=docs/benchmarks.md
mkdir -p docs
{
  echo "# Benchmarks"
  echo
  echo "Regenerate with \`make bench\` (about 45 minutes; the usage rows count a million files in the VM). Every row is measured in the same run as its"
  echo "baseline, against real servers on loopback: on the host, Samba and NFS-Ganesha (this kernel cannot"
  echo "mount, so only user-space rows run there); in the test VM (\`test/vm\`, the host's Debian kernel under"
  echo "qemu TCG emulation, so absolute numbers are slow and only ratios carry over), kernel nfsd and Samba,"
  echo "where the mount-based baselines run too. \"vs. baseline\" is our p50 divided by the baseline's p50:"
  echo "below 1 is faster. The VM rows use fewer operations (\`VM_BENCH_ARGS\`, default \`-ops 40\`)."
  echo
  echo "Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(free -g | awk '/Mem:/ {print $2}') GiB,"
  echo "kernel $(uname -r) on the host, $(ls /lib/modules | sort -V | tail -1) in the VM, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%d)."
  echo
  echo "## Host"
  echo
  cat "$results/host.md"
  echo
  echo "## Test VM"
  echo
  cat "$results/vm.md"
  echo
  if [ -f docs/benchmarks-notes.md ]; then cat docs/benchmarks-notes.md; fi
} > "$out"
echo "wrote $out"
