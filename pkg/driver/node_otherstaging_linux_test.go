//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	mount "k8s.io/mount-utils"
)

// stageNFS stages the NFS volume id (nfs://nas/export, subDir sub) at
// staging, failing the test if it cannot.
func stageNFS(t *testing.T, d *Driver, id, sub, staging string) {
	t.Helper()
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: sub},
	})
	if err != nil {
		t.Fatalf("stage %s: %v", id, err)
	}
}

// mountedAt is the device the fake mount table shows at path ("" for none).
func mountedAt(fake *mount.FakeMounter, path string) string {
	mps, _ := fake.List()
	dev := ""
	for _, mp := range mps {
		if mp.Path == path {
			dev = mp.Device
		}
	}
	return dev
}

// A publish names its volume and the staging path the kubelet staged it
// at. The node's record says which volume it staged there: a publish of
// another volume with that staging path would bind the first volume's
// directory into the second volume's pod (another share or directory
// than the volume's own).
func TestPublishNeverBindsAnotherVolumesStaging(t *testing.T) {
	d, fake, _ := newNodeUnderTest(t)
	dir := t.TempDir()
	stagingA := filepath.Join(dir, "staging-a")
	stageNFS(t, d, "volume-a", "team-a", stagingA)
	target := filepath.Join(dir, "target-b")
	_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
		VolumeId: "volume-b", StagingTargetPath: stagingA, TargetPath: target,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: "team-b"},
	})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "volume-a") {
		t.Errorf("publish of volume-b with volume-a's staging path: %v, want FailedPrecondition naming the volume staged there", err)
	}
	if dev := mountedAt(fake, target); dev != "" {
		t.Errorf("volume-a's mount (%s) is bound at volume-b's target", dev)
	}
}

// A stage of another volume at a staging path where a volume is mounted
// would reuse that mount and record it as the new volume's; an unstage of
// another volume would take it down from under its pods, without its
// volume's lock.
func TestStageAndUnstageNeverTakeAnotherVolumesStaging(t *testing.T) {
	d, fake, _ := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	stageNFS(t, d, "volume-a", "team-a", staging)
	dev := mountedAt(fake, staging)
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId: "volume-b", StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: "team-b"},
	})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("stage of volume-b at volume-a's staging path: %v, want FailedPrecondition", err)
	}
	if st, err := d.nodeState().Staged(staging); err != nil || st.VolumeID != "volume-a" {
		t.Errorf("the record of volume-a's staging path now says %+v (%v)", st.VolumeID, err)
	}
	_, err = d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: "volume-b", StagingTargetPath: staging})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("unstage of volume-b at volume-a's staging path: %v, want FailedPrecondition", err)
	}
	if got := mountedAt(fake, staging); got != dev {
		t.Errorf("volume-a's mount at its staging path is %q after another volume's unstage, want %q", got, dev)
	}
	// Its own volume's unstage takes it down, and then another volume may
	// be staged there.
	if _, err := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: "volume-a", StagingTargetPath: staging}); err != nil {
		t.Fatal(err)
	}
	stageNFS(t, d, "volume-b", "team-b", staging)
}

// A stage where another volume's record is left, with nothing mounted any
// more (heldByOther lets it go on: the record is a leftover, replaced),
// records the new volume's size, never the other volume's expanded one:
// the stats would report the other volume's capacity under this volume.
func TestAStageOverAnotherVolumesLeftoverRecordKeepsNotItsSize(t *testing.T) {
	d, fake, _ := newNodeUnderTest(t)
	ctx := context.Background()
	staging := filepath.Join(t.TempDir(), "staging")
	stage := func(id, sub string) {
		t.Helper()
		if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: id, StagingTargetPath: staging,
			VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
			VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: sub, "capacityBytes": "65536"},
		}); err != nil {
			t.Fatalf("stage %s: %v", id, err)
		}
	}
	stage("volume-a", "team-a")
	if _, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{VolumeId: "volume-a", VolumePath: staging, StagingTargetPath: staging,
		CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 30}}); err != nil {
		t.Fatal(err)
	}
	// The mount went (a reboot), its record stayed.
	if err := fake.Unmount(staging); err != nil {
		t.Fatal(err)
	}
	stage("volume-b", "team-b")
	st, err := d.nodeState().Staged(staging)
	if err != nil {
		t.Fatal(err)
	}
	if st.VolumeID != "volume-b" || st.CapacityBytes != 65536 {
		t.Errorf("volume-b's record: volume %q, %d bytes; want volume-b, 65536 (volume-a's expansion to %d is not volume-b's)", st.VolumeID, st.CapacityBytes, 1<<30)
	}
	// The same volume staged again keeps its own expansion.
	if _, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{VolumeId: "volume-b", VolumePath: staging, StagingTargetPath: staging,
		CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 20}}); err != nil {
		t.Fatal(err)
	}
	stage("volume-b", "team-b")
	if st, _ := d.nodeState().Staged(staging); st.CapacityBytes != 1<<20 {
		t.Errorf("volume-b staged again: %d bytes, want its expansion's %d", st.CapacityBytes, 1<<20)
	}
}
