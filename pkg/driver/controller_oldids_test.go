package driver

import (
	"context"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A comma in an SMB base is refused for new volumes (mount.cifs would pass
// it to the kernel as an option separator), but a volume an earlier build
// made with one (Windows nodes mount it) is still a volume of this driver:
// its DeleteVolume deletes it, never answers OK as for an ID it never
// issued and leaves the data.
func TestAVolumeWhoseBaseHasACommaIsRefusedNewAndDeletedOld(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	secrets := map[string]string{"username": "u", "password": "p"}
	_, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-new", Parameters: map[string]string{"source": "smb://fs/share/Team,Inc"}, Secrets: secrets,
		VolumeCapabilities: reviewCaps(),
	})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("a new volume on a base with a comma: %v, want InvalidArgument", err)
	}
	rec, err := state.New(ms.Client()).Create(ctx, state.CreateRequest{Path: "Team,Inc/pvc-x", Name: "pvc-x", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("Team,Inc/pvc-x/data.txt", []byte("data")); err != nil {
		t.Fatal(err)
	}
	id := volume.Volume{
		Source: source.Source{Protocol: source.SMB, Host: "fs", Share: "share", Base: "Team,Inc"},
		SubDir: "pvc-x", OnDelete: volume.Delete, UID: rec.UID,
	}.ID()
	if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets}); err != nil {
		t.Fatal(err)
	}
	if _, err := ms.Client().Stat(ctx, "Team,Inc/pvc-x"); err == nil {
		t.Errorf("DeleteVolume of %s answered OK and left the volume", id)
	}
}
