#!/usr/bin/env bash
# Boots this machine's Debian kernel in qemu (TCG) with the host's root file
# system read-only over 9p under a tmpfs overlay, runs one command inside the
# guest as root, and returns its exit code. Everything the command does
# (servers, mounts, network) stays inside the guest and its loopback.
#
#   test/vm/run.sh RESULTS_DIR COMMAND [ARGS...]
#
# RESULTS_DIR (created) is shared read-write with the guest at /results; the
# guest's console log is RESULTS_DIR/console.log. The command runs with its
# working directory at the repository root, or at /results when the
# repository is under /tmp (the guest's /tmp is its own): put what the
# command needs in RESULTS_DIR.
# VM_TIMEOUT (seconds, default 900) bounds the whole boot-and-run.
# VM_NIC, when set, is qemu's -nic argument (default: no network card); the
# cluster test (test/node) gives the guest a restricted user network that
# reaches only what it forwards.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
results="$1"; shift
mkdir -p "$results"
results="$(cd "$results" && pwd)"
# VM_KERNEL_ROOT boots another kernel than the host's: a directory with
# boot/vmlinuz-KVER and lib/modules/KVER (test/vm/fetch-kernel.sh makes one).
kroot="${VM_KERNEL_ROOT:-}"
if [ -n "$kroot" ]; then
  kver="$(ls "$kroot/lib/modules" | sort -V | tail -1)"
else
  kver="${VM_KERNEL_VERSION:-$(ls /lib/modules | sort -V | tail -1)}"
fi
kernel="$kroot/boot/vmlinuz-$kver"
[ -r "$kernel" ] || { echo "no kernel $kernel: apt-get install linux-image-amd64" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: apt-get install qemu-system-x86" >&2; exit 2; }

cp "$here/guest.sh" "$results/guest.sh"
initrd="$results/initrd.cpio.gz"
"$here/build-initrd.sh" "$kver" "$initrd" "$kroot"

# The command line the guest runs, one argument per line.
printf '%s\n' "$@" > "$results/cmd"
rm -f "$results/exit-code"
: > "$results/console.log"

# Everything the guest should see of the environment.
{
  printf 'export REPO=%q\n' "$repo"
  for v in FILESHARE_DRIVER_BINARY FILESHARE_MANIFESTS FILESHARE_TEST_FLAGS GOFLAGS ${VM_ENV:-}; do
    [ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
  done
} > "$results/env.sh"

timeout_s="${VM_TIMEOUT:-900}"
# VM_BOOT_TIMEOUT (seconds, default 240) bounds the boot alone: from qemu's
# start to the guest script's first line in guest.log (about 5 s on a quiet
# machine). A kernel that dies or hangs while it boots ran no test: it is
# booted once more. Both happened under TCG: an int3 Oops in
# sched_clock_cpu's text patching, and a boot that never reached the guest
# script (the cluster test waited its ten minutes for a node).
# No tsc=reliable: with it the guest takes its TSC for stable and, at
# late_initcall, patches every sched_clock_cpu call site (a static key) while
# the other vCPU runs them, and QEMU's multi-threaded TCG does not always
# see the patched code on the other vCPU (the Oops above: the int3 of the
# patch executed after the patch was done). Without it the guest finds its
# TSCs unsynchronized before sched_clock is up, nothing is patched, and the
# clock is the emulated HPET (slower: the VM's rows in docs/benchmarks.md
# measured from 2026-11-24 to 11-27 ran with it, about 8% faster).
boot_limit="${VM_BOOT_TIMEOUT:-240}"
glog_size() { (wc -c <"$results/guest.log") 2>/dev/null || echo 0; }
boots=0
while :; do
  boots=$((boots + 1))
  started="$(glog_size)"
  set +e
  timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
    -accel tcg,thread=multi -cpu max -smp 2 -m "${VM_MEMORY:-3072}" \
    -nographic -no-reboot -nic "${VM_NIC:-none}" \
    -kernel "$kernel" -initrd "$initrd" \
    -append "console=ttyS0 panic=-1 quiet loglevel=3 fscsi.guest=/results/guest.sh${kroot:+ fscsi.modules=$kroot/lib/modules}" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$results,mount_tag=results,security_model=none,multidevs=remap" \
    -serial "file:$results/console.log" -monitor none -display none </dev/null &
  qpid=$!
  hung=
  for ((waited = 0; ; waited++)); do
    [ "$(glog_size)" != "$started" ] && break
    kill -0 "$qpid" 2>/dev/null || break
    if [ "$waited" -ge "$boot_limit" ]; then
      hung=1
      # timeout(1) hands the signal to qemu and waits for it.
      kill -TERM "$qpid" 2>/dev/null
      break
    fi
    sleep 1
  done
  wait "$qpid"
  qrc=$?
  set -e
  why=
  if [ -n "$hung" ]; then
    why="did not start the guest in ${boot_limit}s"
  elif [ ! -s "$results/exit-code" ] && [ $qrc -ne 124 ] && [ $qrc -ne 137 ] && [ "$(glog_size)" = "$started" ]; then
    why="died before the guest started (qemu rc $qrc)"
  fi
  if [ -n "$why" ] && [ $boots -lt 2 ]; then
    echo "the VM's kernel $why; booting it once more. Console tail:" >&2
    tail -20 "$results/console.log" >&2
    : > "$results/console.log"
    continue
  fi
  if [ -n "$hung" ]; then
    echo "the VM's kernel $why, twice; console tail:" >&2
    tail -50 "$results/console.log" >&2
    exit 124
  fi
  break
done
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
  echo "VM timed out after ${timeout_s}s; console tail:" >&2
  tail -50 "$results/console.log" >&2
  exit 124
fi
if [ ! -s "$results/exit-code" ]; then
  echo "VM exited (qemu rc $qrc) without an exit code; console tail:" >&2
  tail -80 "$results/console.log" >&2
  exit 125
fi
exit "$(cat "$results/exit-code")"
