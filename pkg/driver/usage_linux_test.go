package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

// NodeGetVolumeStats answers the share's numbers until the node has counted
// the volume, then the volume's own: what its files occupy, its inodes,
// its requested size as capacity. Over that size, NodeGetVolumeHealth says
// DEGRADED with how much it uses, and the node's metric counts it; the
// unstage forgets it. (The mount is the fake's: the count walks the staging
// directory, a plain directory here; VM tests count real mounts.)
func TestNodeStatsReportTheVolumesOwnUse(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "s")
	id := "v1#nfs://10.0.0.5/export#pvc-1#delete"
	ctx := context.Background()
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{"source": "nfs://10.0.0.5/export", "subDir": "pvc-1", "capacityBytes": "65536"},
	}); err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{100_000, 30_000} {
		if err := os.WriteFile(filepath.Join(staging, "f"+strings.Repeat("x", i)), []byte(strings.Repeat("d", n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: staging, StagingTargetPath: staging})
	if err != nil {
		t.Fatal(err)
	}
	if first.GetUsage()[0].GetTotal() == 65536 {
		t.Fatal("the first answer waited for a count")
	}
	var bytes, inodes *csi.VolumeUsage
	for range 500 {
		st, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: staging, StagingTargetPath: staging})
		if err != nil {
			t.Fatal(err)
		}
		bytes, inodes = st.GetUsage()[0], st.GetUsage()[1]
		if bytes.GetTotal() == 65536 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if bytes.GetTotal() != 65536 || bytes.GetUsed() < 130_000 || bytes.GetUsed() > 200_000 || bytes.GetAvailable() != 0 || inodes.GetUsed() != 3 {
		t.Fatalf("stats of a volume of 3 entries and 130 kB with 64 KiB requested: %v %v", bytes, inodes)
	}
	h, err := d.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: id, StagingTargetPath: staging})
	if err != nil {
		t.Fatal(err)
	}
	if st := h.GetVolumeHealth().GetHealthStatuses(); len(st) != 1 || st[0].GetReason() != "OverCapacity" || st[0].GetStatus() != csi.VolumeHealthErrorType_DEGRADED ||
		!strings.Contains(st[0].GetMessage(), "GiB requested") {
		t.Fatalf("health of a volume over its size: %v", st)
	}
	wantMetric(t, d, "fileshare_csi_node_volumes_over_capacity", nil, 1)
	// What a real unmount takes away with the mount.
	names, _ := os.ReadDir(staging)
	for _, e := range names {
		_ = os.Remove(filepath.Join(staging, e.Name()))
	}
	if _, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging}); err != nil {
		t.Fatal(err)
	}
	wantMetric(t, d, "fileshare_csi_node_volumes_over_capacity", nil, 0)
	if _, ok := d.usage.Peek(staging); ok {
		t.Fatal("an unstaged volume's count is kept")
	}
}
