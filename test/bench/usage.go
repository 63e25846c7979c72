//go:build linux

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

var (
	usageFiles  = flag.Int("usage-files", 100000, "files in the volume the usage rows count (the VM's make bench counts a million)")
	usageWindow = flag.Duration("usage-window", 60*time.Second, "how long the usage rows watch a count at the node's defaults")
)

// usageGiB is the usage rows' requested size: the node answers it as the
// volume's capacity once its own count is in, which tells that answer from
// the share's.
const usageGiB = 1 << 30

// usageRows measure what counting a volume's own use costs a node (#30).
// The node plugin stages a volume of -usage-files empty files in 1,000
// directories and is asked NodeGetVolumeStats, as the kubelet asks, until
// it answers with the volume's own count:
//   - unpaced (--usage-entries-per-second far above what a walk reaches),
//     against du -s on a fresh kernel mount of the same tree: the walk's own
//     cost, and the peak memory of the node plugin over it;
//   - at the node's defaults, for -usage-window: the share of one core a
//     node pays while a count runs, which is what a node pays for
//     -usage-files/5000 seconds per volume every --usage-interval.
//
// Empty files, so that a million fit in the VM's memory-backed disk: the
// walk's cost is per entry, not per byte.
func (e *env) usageRows(p protocol) error {
	ctx := context.Background()
	dirs := min(1000, max(1, *usageFiles/100))
	want := int64(*usageFiles/dirs*dirs + dirs + 2) // the files, their directories, the tree's top and the volume's root
	name := fmt.Sprintf("%s usage count of %d files (NodeGetVolumeStats until the volume's own)", p.name, want)

	ctrl, err := e.startDriver("controller")
	if err != nil {
		return err
	}
	defer ctrl.stop()
	cc := csi.NewControllerClient(ctrl.conn)
	resp, err := cc.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "usage-" + p.name, CapacityRange: &csi.CapacityRange{RequiredBytes: usageGiB},
		Parameters: map[string]string{"source": p.source, "mountOptions": p.classOptions}, Secrets: p.secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	if err != nil {
		return err
	}
	vol := resp.GetVolume()
	tree := filepath.Join(p.base, "usage-"+p.name, "t")
	if err := e.placeUsageTree(tree, dirs); err != nil {
		return err
	}
	defer func() { _ = os.Rename(tree, e.usageTree) }() // the next share's rows count the same tree

	elapsed, cpu, peak, err := e.countOnce(p, vol, []string{"--usage-entries-per-second", "1000000000"}, want, 0)
	if err != nil {
		return fmt.Errorf("%s unpaced count: %w", p.name, err)
	}
	e.add(row{name: name, server: p.server, method: "fileshare-csi node, unpaced", n: 1, p50: elapsed, p99: elapsed,
		opsPerSec: float64(want) / elapsed.Seconds(), note: fmt.Sprintf("ops/s = entries/s; node CPU %.1f s, peak RSS %s", cpu, peak)})

	mnt := filepath.Join(e.dir, "du-"+p.name)
	_ = os.MkdirAll(mnt, 0o755)
	start := time.Now()
	if err := runSteps([][]string{
		{"mount", "-t", p.fstype, "-o", p.mountOptions(), p.device + "/usage-" + p.name, mnt},
		{"du", "-s", mnt},
		{"umount", mnt},
	}); err != nil {
		return err
	}
	base := time.Since(start)
	e.add(row{name: name, server: p.server, method: "baseline: mount(8), du -s, umount", n: 1, p50: base, p99: base, opsPerSec: float64(want) / base.Seconds(), note: "ops/s = entries/s"})

	// Watched for less than a whole count takes, so that it sees a walk
	// running at its pace all along.
	window := min(*usageWindow, time.Duration(want)*time.Second/5000*4/5)
	watched, cpu, peak, err := e.countOnce(p, vol, nil, want, window)
	if err != nil {
		return fmt.Errorf("%s count at the defaults: %w", p.name, err)
	}
	e.usage = append(e.usage, fmt.Sprintf("| %s | %d | %.0f%% | %s | %s |", p.name, want, 100*cpu/watched.Seconds(), peak,
		(time.Duration(want)*time.Second/5000).Round(time.Second)))

	if err := os.Rename(tree, e.usageTree); err != nil {
		return err
	}
	_, err = cc.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: p.secrets})
	return err
}

// placeUsageTree puts the tree the usage rows count at dst: made once, then
// moved from share to share (both live on the bench's own disk).
func (e *env) placeUsageTree(dst string, dirs int) error {
	if e.usageTree == "" {
		e.usageTree = filepath.Join(e.dir, "usage-tree")
		fmt.Fprintf(os.Stderr, "  making %d files for the usage rows\n", *usageFiles/dirs*dirs)
		for d := range dirs {
			sub := filepath.Join(e.usageTree, fmt.Sprintf("d%04d", d))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
			for f := range *usageFiles / dirs {
				fh, err := os.OpenFile(filepath.Join(sub, fmt.Sprintf("f%05d", f)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
				if err != nil {
					return err
				}
				fh.Close()
			}
		}
	}
	return os.Rename(e.usageTree, dst)
}

// countOnce starts a node plugin with extra flags, stages vol and asks
// NodeGetVolumeStats every 200 ms. With window 0 it waits for the volume's
// own count (want entries) and says how long that took; otherwise it
// watches for window. Either way it says the plugin's CPU seconds and peak
// memory meanwhile.
func (e *env) countOnce(p protocol, vol *csi.Volume, extra []string, want int64, window time.Duration) (elapsed time.Duration, cpu float64, peak string, err error) {
	ctx := context.Background()
	d, err := e.startDriver("node", extra...)
	if err != nil {
		return 0, 0, "", err
	}
	defer d.stop()
	node := csi.NewNodeClient(d.conn)
	staging := filepath.Join(e.dir, "usage-staging-"+p.name)
	if _, err := node.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
		VolumeCapability: mountCap, VolumeContext: vol.GetVolumeContext(), Secrets: p.secrets}); err != nil {
		return 0, 0, "", err
	}
	defer func() {
		// A count may still be under way (the window at the defaults):
		// the unstage ends it, and must succeed, or the mount outlives
		// its server at the end of the run.
		_, uerr := node.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging})
		if err == nil && uerr != nil {
			err = fmt.Errorf("unstage: %w", uerr)
		}
	}()
	cpu0, err := cpuSeconds(d.Pid())
	if err != nil {
		return 0, 0, "", err
	}
	start := time.Now()
	var seen int64
	for {
		st, err := node.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: vol.GetVolumeId(), VolumePath: staging, StagingTargetPath: staging})
		if err != nil {
			return 0, 0, "", err
		}
		own := false
		for _, u := range st.GetUsage() {
			if u.GetUnit() == csi.VolumeUsage_BYTES && u.GetTotal() == usageGiB {
				own = true
			}
			if u.GetUnit() == csi.VolumeUsage_INODES {
				seen = u.GetUsed()
			}
		}
		elapsed := time.Since(start)
		if window == 0 && own {
			if seen != want {
				return 0, 0, "", fmt.Errorf("the node counted %d entries, the tree has %d", seen, want)
			}
			cpu1, err := cpuSeconds(d.Pid())
			_, peak := rss(d.Pid())
			return elapsed, cpu1 - cpu0, peak, err
		}
		if window > 0 && elapsed >= window {
			cpu1, err := cpuSeconds(d.Pid())
			_, peak := rss(d.Pid())
			return elapsed, cpu1 - cpu0, peak, err
		}
		if elapsed > 2*time.Hour {
			return 0, 0, "", errors.New("no count of the volume's own after 2 hours")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// cpuSeconds is the user and system time a process has used, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s on Linux).
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from after it.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return (utime + stime) / 100, nil
}
