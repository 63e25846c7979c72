package driver

import (
	"context"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A tenant's volume holds a directory named like the driver's records (a
// backup of a share, a nested deployment, or just written by the tenant).
// Its snapshot copies it under .fileshare-csi/snapshots/<uid>, where no
// other class can be rooted: DeleteSnapshot must still delete it.
func TestASnapshotOfAVolumeHoldingAMetadataLookalikeIsDeleted(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	d := memshareDriver(t, ms)
	res, err := createIn(ctx, d, "nfs://127.0.0.1/export/base", "${pvc.metadata.name}", "pvc-t", "t", "vol")
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("vol/.fileshare-csi/volumes/x.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	var snapID string
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-t", SourceVolumeId: res.GetVolume().GetVolumeId()})
		if err == nil && r.GetSnapshot().GetReadyToUse() {
			snapID = r.GetSnapshot().GetSnapshotId()
			break
		}
		if time.Now().After(end) {
			t.Fatalf("snapshot not ready: %v", err)
		}
	}
	if _, err := d.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: snapID}); err != nil {
		t.Errorf("DeleteSnapshot: %v", err)
	}
}

// A retained directory a pod made 0700 under its own uid, on an export
// that squashes the controller's root: the server refuses to look inside
// it. The controller could keep no records there either, so it is no other
// class's session root, and it is adopted as before the look for one.
func TestAnUnsearchableRetainedDirectoryIsStillAdopted(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	d := memshareDriver(t, ms)
	if err := ms.WriteFileDirect("ret/data.txt", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if op.Name == "stat" && op.Path == "ret/.fileshare-csi" {
			return fmt.Errorf("stat %s: %w", op.Path, fs.ErrPermission)
		}
		return nil
	})
	if _, err := createIn(ctx, d, "nfs://127.0.0.1/export/base", "${pvc.metadata.name}", "pvc-r", "ns", "ret"); err != nil {
		t.Errorf("adopting a retained directory the controller cannot search: %v", err)
	}
}
