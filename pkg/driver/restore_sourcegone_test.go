package driver

import (
	"context"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// TestARestoreWhoseSnapshotIsGoneIsAnsweredWhenWhole: a CreateVolume from
// a snapshot that filled its volume whole, its answer lost, then the
// snapshot deleted before the provisioner's retry. The retry answers the
// volume it made, as it answered the first time: refused, the CO would
// never learn its ID, nor delete it. The same snapshot named by another
// claim, or by a clone of the deleted volume, is refused NotFound.
func TestARestoreWhoseSnapshotIsGoneIsAnsweredWhenWhole(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	d := memshareDriver(t, ms)
	src := deadVolume(t, d, ms, "pvc-src", "delete")
	snap, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: src})
	if err != nil || !snap.GetSnapshot().GetReadyToUse() {
		t.Fatalf("CreateSnapshot: %v, %v", snap, err)
	}
	cs := &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: snap.GetSnapshot().GetSnapshotId()}}}
	first, err := d.CreateVolume(ctx, deadCreateReq("pvc-r", cs))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshot().GetSnapshotId()}); err != nil {
		t.Fatal(err)
	}
	again, err := d.CreateVolume(ctx, deadCreateReq("pvc-r", cs))
	if err != nil {
		t.Fatalf("the retry of a restore that filled its volume, its snapshot deleted since: %v", err)
	}
	if again.GetVolume().GetVolumeId() != first.GetVolume().GetVolumeId() {
		t.Errorf("the retry answered volume %s, the first try %s", again.GetVolume().GetVolumeId(), first.GetVolume().GetVolumeId())
	}
	if e, ok := entryOf(ms, "pvc-r/data.txt"); !ok || e.Data == "" {
		t.Errorf("the restored volume lost its data: %+v", e)
	}
	if _, err := d.CreateVolume(ctx, deadCreateReq("pvc-other", cs)); status.Code(err) != codes.NotFound {
		t.Errorf("another claim from the deleted snapshot: %v, want NotFound", err)
	}
}
