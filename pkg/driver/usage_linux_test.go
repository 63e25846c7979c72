package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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

// After ControllerExpandVolume the volume context still says the size the
// volume was created with; NodeExpandVolume tells the node the new one.
// Stats report it as capacity, the over-capacity check uses it (at once,
// from the last count), a stage again keeps it, and it never shrinks.
func TestNodeExpandVolumeGivesStatsTheNewSize(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "s")
	target := filepath.Join(t.TempDir(), "t")
	id := "v1#nfs://10.0.0.5/export#pvc-1#delete"
	ctx := context.Background()
	caps, err := d.NodeGetCapabilities(ctx, &csi.NodeGetCapabilitiesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	advertised := false
	for _, c := range caps.GetCapabilities() {
		advertised = advertised || c.GetRpc().GetType() == csi.NodeServiceCapability_RPC_EXPAND_VOLUME
	}
	if !advertised {
		t.Fatal("EXPAND_VOLUME is not advertised: the kubelet would never call NodeExpandVolume")
	}
	stage := &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{"source": "nfs://10.0.0.5/export", "subDir": "pvc-1", "capacityBytes": "65536"},
	}
	if _, err := d.NodeStageVolume(ctx, stage); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: id, StagingTargetPath: staging, TargetPath: target, VolumeCapability: stage.VolumeCapability,
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(staging, "f"), []byte(strings.Repeat("d", 100_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	stats := func() *csi.VolumeUsage {
		t.Helper()
		st, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: target, StagingTargetPath: staging})
		if err != nil {
			t.Fatal(err)
		}
		return st.GetUsage()[0]
	}
	health := func() []*csi.VolumeHealth_VolumeHealthEntry {
		t.Helper()
		h, err := d.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: id, VolumePublishPath: target, StagingTargetPath: staging})
		if err != nil {
			t.Fatal(err)
		}
		return h.GetVolumeHealth().GetHealthStatuses()
	}
	for i := 0; stats().GetTotal() != 65536; i++ {
		if i == 500 {
			t.Fatal("the volume was never counted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if h := health(); len(h) != 1 || h[0].GetReason() != "OverCapacity" {
		t.Fatalf("health of 100 kB in 64 KiB: %v", h)
	}
	wantMetric(t, d, "fileshare_csi_node_volumes_over_capacity", nil, 1)

	// What the kubelet sends: the published path, the staging path, the
	// PV's new capacity.
	resp, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{
		VolumeId: id, VolumePath: target, StagingTargetPath: staging,
		CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 20},
	})
	if err != nil || resp.GetCapacityBytes() != 1<<20 {
		t.Fatalf("NodeExpandVolume to 1 MiB: %v, %v", resp, err)
	}
	wantMetric(t, d, "fileshare_csi_node_volumes_over_capacity", nil, 0)
	if h := health(); len(h) != 0 {
		t.Fatalf("health of 100 kB in 1 MiB: %v", h)
	}
	if u := stats(); u.GetTotal() != 1<<20 || u.GetAvailable() != 1<<20-u.GetUsed() {
		t.Fatalf("stats after the expansion to 1 MiB: %v", u)
	}

	// The kubelet's stage again (its restart) with the unchanged context,
	// and a smaller size (the volume context's), keep the larger one.
	if _, err := d.NodeStageVolume(ctx, stage); err != nil {
		t.Fatal(err)
	}
	if resp, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{
		VolumeId: id, VolumePath: target, CapacityRange: &csi.CapacityRange{RequiredBytes: 65536},
	}); err != nil || resp.GetCapacityBytes() != 1<<20 {
		t.Fatalf("NodeExpandVolume to less: %v, %v", resp, err)
	}
	if u := stats(); u.GetTotal() != 1<<20 {
		t.Fatalf("stats after a stage again: %v", u)
	}

	for _, c := range []struct {
		name string
		req  *csi.NodeExpandVolumeRequest
		code codes.Code
	}{
		{"no volume ID", &csi.NodeExpandVolumeRequest{VolumePath: target}, codes.InvalidArgument},
		{"no volume path", &csi.NodeExpandVolumeRequest{VolumeId: id}, codes.InvalidArgument},
		{"not on this node", &csi.NodeExpandVolumeRequest{VolumeId: id, VolumePath: filepath.Join(t.TempDir(), "x")}, codes.NotFound},
	} {
		if _, err := d.NodeExpandVolume(ctx, c.req); status.Code(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}
}
