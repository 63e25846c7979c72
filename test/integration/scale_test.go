//go:build linux

package integration

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

// scaleEntries is how many files TestDeleteVolumeOfALargeDirectoryStaysWithinTheMemoryLimit
// puts in one directory: a size that runs in seconds by default, and a
// million under `make test-scale`.
func scaleEntries(t *testing.T) int {
	s := os.Getenv("FILESHARE_SCALE_ENTRIES")
	if s == "" {
		return 50000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("FILESHARE_SCALE_ENTRIES=%q: want a positive count", s)
	}
	return n
}

// controllerMemoryLimit reads the controller container's memory limit from
// the quickstart manifest, in bytes. The path comes from this source file's,
// as the test VM runs the test binary elsewhere (with the host's files).
func controllerMemoryLimit(t *testing.T) int64 {
	t.Helper()
	// In the test VM the repository may not be visible (its /tmp is its
	// own): test/vm/test.sh hands the manifests over.
	dir := os.Getenv("FILESHARE_MANIFESTS")
	if dir == "" {
		_, self, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(self), "../../manifests")
	}
	b, err := os.ReadFile(filepath.Join(dir, "base/controller.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "- name: fileshare-csi\n")
	if i < 0 {
		t.Fatal("no fileshare-csi container in manifests/base/controller.yaml")
	}
	m := regexp.MustCompile(`limits:\s*\n\s*memory:\s*(\d+)Mi`).FindStringSubmatch(s[i:])
	if m == nil {
		t.Fatal("no memory limit (in Mi) for the fileshare-csi container in manifests/base/controller.yaml")
	}
	mi, _ := strconv.ParseInt(m[1], 10, 64)
	return mi << 20
}

// driverStatus returns a size field (VmRSS, VmHWM) of the driver's
// /proc/PID/status, in bytes.
func driverStatus(t *testing.T, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", env.driver.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in the driver's /proc status", field)
	return 0
}

// resetPeakRSS makes VmHWM start again from the current RSS (proc(5),
// clear_refs value 5), so a peak belongs to what runs after it.
func resetPeakRSS(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", env.driver.Pid()), []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
}

// nfsConnections counts the suite driver's established TCP connections to
// port 2049.
func nfsConnections(t *testing.T) int { return nfsConnectionsOf(t, env.driver.Pid()) }

// nfsConnectionsOf counts a driver's established TCP connections to port
// 2049: its socket inodes (/proc/PID/fd) that /proc/PID/net/tcp{,6} shows
// with that remote port.
func nfsConnectionsOf(t *testing.T, pid int) int {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Error(err)
		return 0
	}
	mine := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			mine[strings.TrimSuffix(inode, "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
			if len(f) < 10 || f[3] != "01" || !strings.HasSuffix(f[2], ":0801") {
				continue
			}
			if mine[f[9]] {
				n++
			}
		}
	}
	return n
}

// sampleMax calls fn every few milliseconds until stop is called, and
// returns the largest value seen.
func sampleMax(fn func() int) (stop func() int) {
	var peak atomic.Int64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			if v := int64(fn()); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() int {
		close(done)
		<-finished
		return int(peak.Load())
	}
}

func nfsBase(t *testing.T, name string) (params map[string]string, base string) {
	t.Helper()
	base = filepath.Join(env.nfs.Data, name)
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"source": nfsSource(name), "onDelete": "delete"}, base
}

func deleteVolume(t *testing.T, c csi.ControllerClient, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()
	if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id}); err != nil {
		t.Errorf("DeleteVolume %s: %v", id, err)
	}
}

// A directory with many entries is deleted while the driver's peak RSS
// stays within the controller's manifest memory limit, and grows by no
// more than a fixed budget whatever the entry count: directories are read
// and deleted one READDIRPLUS reply at a time, never held whole.
func TestDeleteVolumeOfALargeDirectoryStaysWithinTheMemoryLimit(t *testing.T) {
	// Both NFS clients: v3 reads READDIRPLUS replies, v4.1 READDIR replies,
	// one at a time.
	for _, v := range []struct{ name, pin string }{{"nfs", ""}, {"nfs41", "?vers=4.1"}} {
		t.Run(v.name, func(t *testing.T) { deleteLargeDirectory(t, "scale-memory-"+v.name, v.pin) })
	}
}

func deleteLargeDirectory(t *testing.T, name, pin string) {
	const growthBudget = 20 << 20
	entries := scaleEntries(t)
	limit := controllerMemoryLimit(t)
	c := controller(t)
	params, base := nfsBase(t, name)
	params["source"] += pin
	vol := create(t, c, "big", params, nil)
	dir := filepath.Join(base, "big")
	start := time.Now()
	// Long names, as real trees have: what a whole listing costs grows
	// with them, a batch does not.
	suffix := strings.Repeat("n", 80)
	for i := range entries {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%08d-%s", i, suffix)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	t.Logf("created %d entries on the server's disk in %v", entries, time.Since(start).Round(time.Millisecond))

	rssBefore := driverStatus(t, "VmRSS")
	resetPeakRSS(t)
	stopConns := sampleMax(func() int { return nfsConnections(t) })
	start = time.Now()
	deleteVolume(t, c, vol.GetVolumeId())
	took := time.Since(start)
	conns := stopConns()
	peak := driverStatus(t, "VmHWM")
	t.Logf("DeleteVolume of %d entries: %v (%.0f entries/s), peak RSS %d MiB (%d MiB before), up to %d NFS connections, manifest limit %d MiB",
		entries, took.Round(time.Millisecond), float64(entries)/took.Seconds(), peak>>20, rssBefore>>20, conns, limit>>20)

	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Fatalf("volume directory still there after DeleteVolume: %v", err)
	}
	if margin := limit / 4; peak > limit-margin {
		t.Errorf("peak RSS %d MiB, want under the %d MiB manifest limit less a %d MiB margin", peak>>20, limit>>20, margin>>20)
	}
	if peak-rssBefore > growthBudget {
		t.Errorf("RSS grew by %d MiB while deleting %d entries, want at most %d MiB at any count",
			(peak-rssBefore)>>20, entries, growthBudget>>20)
	}
}

// maxSessionsPerShare is the driver's --max-sessions-per-share default,
// which docs/data-safety.md states as the bound on connections per share.
const maxSessionsPerShare = 16

// Sixteen DeleteVolumes of large trees on one share at once keep the
// driver's connections to the NFS server within the per-share bound: the
// helper sessions of parallel deletion come out of the same pool.
func TestParallelDeleteVolumesStayWithinTheConnectionBound(t *testing.T) {
	const volumes = 16
	// A driver of its own: the suite's driver holds the idle sessions of
	// every earlier test (about 100), and in full runs its count rose by
	// 14 to 30 more than this test's share could open, from other shares'
	// sessions. Here every connection is this test's.
	d := ownDriver(t, "connections-node")
	c := csi.NewControllerClient(d.Conn)
	nfsConnections := func(t *testing.T) int { return nfsConnectionsOf(t, d.Pid()) }
	params, base := nfsBase(t, "scale-connections")
	before := nfsConnections(t)
	var ids []string
	for i := range volumes {
		name := fmt.Sprintf("tree%02d", i)
		ids = append(ids, create(t, c, name, params, nil).GetVolumeId())
		// 40 subdirectories: a batch large enough to spread over helpers.
		fillTree(t, filepath.Join(base, name), 40, 40, true, 0)
	}
	stop := sampleMax(func() int { return nfsConnections(t) })
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { deleteVolume(t, c, id) })
	}
	wg.Wait()
	peak := stop()
	t.Logf("up to %d connections to port 2049 (%d before) during %d parallel DeleteVolumes", peak, before, volumes)
	for i := range volumes {
		if _, err := os.Lstat(filepath.Join(base, fmt.Sprintf("tree%02d", i))); !os.IsNotExist(err) {
			t.Errorf("tree%02d still there after DeleteVolume: %v", i, err)
		}
	}
	if peak <= before {
		t.Fatalf("saw no connection to the NFS server during the deletions (%d before, peak %d): the count is broken", before, peak)
	}
	if peak > before+maxSessionsPerShare {
		t.Errorf("%d connections to the NFS server at once (%d before), want at most %d more: the per-share bound",
			peak, before, maxSessionsPerShare)
	}
}

// DeleteVolume removes symlinks as links: a volume holding links to another
// volume's directory and to a file outside, and a volume directory that was
// itself replaced by a link, are deleted without touching the targets.
func TestDeleteVolumeLeavesSymlinkTargetsAlone(t *testing.T) {
	c := controller(t)
	params, base := nfsBase(t, "symlinks")
	create(t, c, "victim", params, nil)
	links := create(t, c, "links", params, nil)
	replaced := create(t, c, "replaced", params, nil)

	victimDir := filepath.Join(base, "victim")
	fillTree(t, victimDir, 3, 5, false, 0)
	outside := filepath.Join(env.dir, "outside-the-export")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	linksDir := filepath.Join(base, "links")
	if err := os.MkdirAll(filepath.Join(linksDir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"to-victim-absolute": victimDir,
		"to-victim-relative": "../victim",
		"to-victim-subdir":   filepath.Join(victimDir, "d000"),
		"to-outside-file":    outside,
		"sub/deeper":         "../../victim",
	} {
		if err := os.Symlink(target, filepath.Join(linksDir, link)); err != nil {
			t.Fatal(err)
		}
	}
	// Enough links for a batch that goes to helper sessions, too.
	for i := range 64 {
		if err := os.Symlink(victimDir, filepath.Join(linksDir, fmt.Sprintf("many%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	replacedDir := filepath.Join(base, "replaced")
	if err := os.RemoveAll(replacedDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victimDir, replacedDir); err != nil {
		t.Fatal(err)
	}

	deleteVolume(t, c, links.GetVolumeId())
	deleteVolume(t, c, replaced.GetVolumeId())

	for _, gone := range []string{linksDir, replacedDir} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s still there after DeleteVolume: %v", gone, err)
		}
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "keep" {
		t.Errorf("file outside the export the link pointed to: %q, %v", b, err)
	}
	for d := range 3 {
		for f := range 5 {
			p := filepath.Join(victimDir, fmt.Sprintf("d%03d", d), fmt.Sprintf("f%03d", f))
			if b, err := os.ReadFile(p); err != nil || string(b) != "data" {
				t.Errorf("the other volume's %s: %q, %v", p, b, err)
			}
		}
	}
}
