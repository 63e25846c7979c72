package driver

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"

	"github.com/fileshare-csi/fileshare-csi/pkg/metrics"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// The contract of NodeGetVolumeStats on a Windows node, through csi-proxy's
// generated clients against the fake csi-proxy, whose shares hold files
// with the sizes and allocation sizes a server's directory listing gives:
// the walk counts the volume's directory on the share (reached through the
// staging link, from the published path), its bytes are the allocation
// sizes (a sparse file counts what it holds), its inodes the entries, the
// root included; links are counted, not followed; nothing outside the
// volume is counted. Capacity, OverCapacity and NodeExpandVolume work as
// on Linux, and a share that hangs holds one walk, never more.

const winVolume = `\\fs\share\base\pvc-1`

func newWindowsUsageNode(t *testing.T) (*Driver, *csiproxytest.Server) {
	t.Helper()
	fake := csiproxytest.Start(t, winStaging, winTarget)
	d, err := newTestDriver(t, Config{
		Name: "fileshare.csi.dev", NodeID: "win-1", Node: true,
		Mounter:  mounter.NewWindows(fake.NewClient(t)),
		Metrics:  metrics.New("fileshare.csi.dev"),
		StateDir: filepath.Join(t.TempDir(), "state"),
		// Every stats call may start a walk: the test sees each change.
		Usage: UsageBounds{Interval: time.Nanosecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	return d, fake
}

func TestWindowsNodeStatsCountTheVolumeThroughTheMapping(t *testing.T) {
	d, fake := newWindowsUsageNode(t)
	ctx := context.Background()
	const id = "v1#smb://fs/share/base#pvc-1#delete"
	fake.PutRemote(winVolume+`\a.txt`, winhost.DirEntry{Size: 300_000, Allocated: 303_104})
	fake.PutRemote(winVolume+`\d\sparse.img`, winhost.DirEntry{Size: 1 << 30, Allocated: 65_536})
	fake.PutRemote(winVolume+`\d\e`, winhost.DirEntry{Dir: true})
	// A directory link to elsewhere on the share: counted, never followed.
	fake.PutRemote(winVolume+`\lnk`, winhost.DirEntry{Dir: true, Link: true, Allocated: 0})
	fake.PutRemote(`\\fs\share\base\other\big`, winhost.DirEntry{Size: 10 << 30, Allocated: 10 << 30})
	const wantBytes, wantInodes = 303_104 + 65_536, 6 // root, a.txt, d, sparse.img, e, lnk

	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: winStaging, VolumeCapability: windowsCapability(),
		VolumeContext: map[string]string{"capacityBytes": "1048576"},
		Secrets:       map[string]string{"username": "alice", "password": "s3cret"},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: id, StagingTargetPath: winStaging, TargetPath: winTarget, VolumeCapability: windowsCapability(),
	}); err != nil {
		t.Fatal(err)
	}
	stats := func() (*csi.VolumeUsage, *csi.VolumeUsage) {
		t.Helper()
		st, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: winTarget, StagingTargetPath: winStaging})
		if err != nil {
			t.Fatal(err)
		}
		return st.GetUsage()[0], st.GetUsage()[1]
	}
	until := func(what string, done func(b, i *csi.VolumeUsage) bool) (*csi.VolumeUsage, *csi.VolumeUsage) {
		t.Helper()
		for range 500 {
			if b, i := stats(); done(b, i) {
				return b, i
			}
			time.Sleep(10 * time.Millisecond)
		}
		b, i := stats()
		t.Fatalf("never %s: %v %v", what, b, i)
		return nil, nil
	}
	if b, _ := stats(); b.GetTotal() != 100<<30 {
		t.Fatalf("the first answer is not the share's (GetDiskFreeSpaceEx): %v", b)
	}
	b, i := until("counted", func(b, _ *csi.VolumeUsage) bool { return b.GetTotal() == 1<<20 })
	if b.GetUsed() != wantBytes || b.GetAvailable() != 1<<20-wantBytes || i.GetUsed() != wantInodes {
		t.Fatalf("stats of the volume: %v %v, want %d bytes used of 1 MiB and %d inodes", b, i, wantBytes, wantInodes)
	}

	// Over the requested size, then expanded past it.
	fake.PutRemote(winVolume+`\d\big.bin`, winhost.DirEntry{Size: 2 << 20, Allocated: 2 << 20})
	until("over capacity", func(b, _ *csi.VolumeUsage) bool { return b.GetUsed() > 1<<20 })
	h, err := d.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: id, VolumePublishPath: winTarget, StagingTargetPath: winStaging})
	if err != nil {
		t.Fatal(err)
	}
	if st := h.GetVolumeHealth().GetHealthStatuses(); len(st) != 1 || st[0].GetReason() != "OverCapacity" || !strings.Contains(st[0].GetMessage(), "GiB requested") {
		t.Fatalf("health of a Windows volume over its size: %v", st)
	}
	wantMetric(t, d, "fileshare_csi_node_volumes_over_capacity", nil, 1)
	if _, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{
		VolumeId: id, VolumePath: winTarget, StagingTargetPath: winStaging, CapacityRange: &csi.CapacityRange{RequiredBytes: 4 << 20},
	}); err != nil {
		t.Fatal(err)
	}
	wantMetric(t, d, "fileshare_csi_node_volumes_over_capacity", nil, 0)
	if b, _ := stats(); b.GetTotal() != 4<<20 {
		t.Fatalf("capacity after NodeExpandVolume to 4 MiB: %v", b)
	}

	// A share whose listings hang: stats calls keep answering (from the
	// last count), and the one stuck walk is all there is.
	time.Sleep(50 * time.Millisecond) // the last walk started above ends
	release := fake.HangShare(`\\fs\share`)
	defer release()
	opened := fake.DirsOpened()
	goroutines := runtime.NumGoroutine()
	began := time.Now()
	for range 100 {
		if b, _ := stats(); b.GetTotal() != 4<<20 {
			t.Fatalf("stats while the share hangs: %v", b)
		}
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("100 stats calls on a hung share took %s", took)
	}
	if n := fake.DirsOpened() - opened; n > 1 {
		t.Fatalf("%d listings begun on a hung share, want at most the one walk", n)
	}
	if n := runtime.NumGoroutine() - goroutines; n > 5 {
		t.Fatalf("%d more goroutines after 100 stats calls on a hung share", n)
	}
	release()
	fake.PutRemote(winVolume+`\later`, winhost.DirEntry{Size: 1, Allocated: 4096})
	until("counted again once the share answers", func(b, _ *csi.VolumeUsage) bool { return b.GetUsed() == wantBytes+2<<20+4096 })

	// A share that does not answer at all: the call says so, and no walk
	// starts (the counter's check fails first).
	fake.SetServerDown(`\\fs\share`, true)
	// A walk the stats calls above started, past its check before the
	// server went down, lists on until its next directory fails: it ends
	// here first (Forget waits for it). Waiting 50 ms for it instead
	// failed this test whenever the walk was not run for that long
	// between two directories (a loaded machine).
	d.usage.Forget(ctx, winStaging)
	opened = fake.DirsOpened()
	_, err = d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: winTarget, StagingTargetPath: winStaging})
	if err == nil {
		t.Fatal("stats of a volume whose server is down succeeded")
	}
	wantCode(t, "stats with the server down", err, codes.Internal, "remounting failed")
	time.Sleep(50 * time.Millisecond)
	if n := fake.DirsOpened() - opened; n != 0 {
		t.Fatalf("%d listings begun on a share that does not answer", n)
	}
}

// On a Windows node (records with an Identity) as on Linux: stats and an
// expansion for a volume other than the one at the path are NOT_FOUND, and
// a staging record of an earlier version, with no volume ID, refuses
// nothing.
func TestWindowsNodeStatsAndExpandOfAnotherVolumesPathAreNotFound(t *testing.T) {
	d, _ := newWindowsUsageNode(t)
	ctx := context.Background()
	const id, other = "v1#smb://fs/share/base#pvc-1#delete", "v1#smb://fs/share/base#pvc-2#delete"
	if err := windowsStage(ctx, d, id); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: id, StagingTargetPath: winStaging, TargetPath: winTarget, VolumeCapability: windowsCapability(),
	}); err != nil {
		t.Fatal(err)
	}
	if st, err := d.nodeState().Staged(winStaging); err != nil || st.Identity == nil {
		t.Fatalf("the Windows staging record: %+v, %v; want one with an Identity", st, err)
	}
	expandTo := func(vol, path string) error {
		_, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{VolumeId: vol, VolumePath: path, CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 20}})
		return err
	}
	for _, path := range []string{winTarget, winStaging} {
		_, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: other, VolumePath: path})
		wantCode(t, "stats of another volume at "+path, err, codes.NotFound, "is not at")
		wantCode(t, "expand of another volume at "+path, expandTo(other, path), codes.NotFound, "is not at")
		if _, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: path}); err != nil {
			t.Errorf("stats of the volume at %s: %v", path, err)
		}
	}
	if err := expandTo(id, winTarget); err != nil {
		t.Fatalf("expand of the volume at its target: %v", err)
	}
	st, err := d.nodeState().Staged(winStaging)
	if err != nil {
		t.Fatal(err)
	}
	st.VolumeID = ""
	if err := d.nodeState().SaveStaged(winStaging, st); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: winStaging}); err != nil {
		t.Errorf("stats at a staging path whose record has no volume ID: %v", err)
	}
	if err := expandTo(id, winStaging); err != nil {
		t.Errorf("expand at a staging path whose record has no volume ID: %v", err)
	}
}
