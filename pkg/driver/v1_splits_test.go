package driver

import (
	"context"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A v1 record lies in its class's base (BASE/.fileshare-csi/<escaped
// subDir>.json), not at the share's root: a class whose base splits the
// same path elsewhere (smb://fs/share with subDir team/data, and the v1
// class smb://fs/share/team with subDir data) reaches the v1 volume's
// directory with another v1 record path. Its claim must not adopt that
// live volume, nor the v1 class's base, which holds v1 volumes that its
// DeleteVolume would remove.
func TestNoClaimAdoptsAV1VolumeOrBaseThroughAnotherBase(t *testing.T) {
	for _, tc := range []struct {
		name, v1Record, src, tmpl, ns, pvc string
	}{
		{"v1 volume, longer base", "team/.fileshare-csi/data.json", "smb://fs/share", "${pvc.metadata.namespace}/${pvc.metadata.name}", "team", "data"},
		{"v1 volume, shorter base", ".fileshare-csi/team%2Fdata.json", "smb://fs/share/team", "${pvc.metadata.name}", "x", "data"},
		{"v1 base", "team/.fileshare-csi/data.json", "smb://fs/share", "${pvc.metadata.name}", "x", "team"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			ms := memshare.New()
			d := memshareDriver(t, ms)
			writeV1Volume(t, ms, tc.v1Record, "team/data")
			res, err := createIn(ctx, d, tc.src, tc.tmpl, "pvc-new", tc.ns, tc.pvc)
			if status.Code(err) != codes.AlreadyExists {
				t.Errorf("a claim at a live v1 volume or base: %v, %v; want AlreadyExists", res.GetVolume().GetVolumeId(), err)
			}
			if _, err := ms.Client().Stat(ctx, "team/data/file.txt"); err != nil {
				t.Errorf("the v1 volume's data: %v", err)
			}
			if _, err := ms.Client().Stat(ctx, tc.v1Record); err != nil {
				t.Errorf("the v1 record: %v", err)
			}
		})
	}
}

// Nor is a claim's directory made inside a live v1 volume, whatever base
// splits its path (the v1 class's own, with a template that nests, or
// another): as for a volume of today (checkAncestors), the v1 volume's
// pods would see and change the claim's data. Each create here is the
// share's first, which goes the step-by-step way (checkAncestors); the
// batched way does not look for a root-based v1 record (docs/data-safety.md,
// "Not covered": a read per ancestor on every create).
func TestNoClaimLiesInsideAV1Volume(t *testing.T) {
	for _, tc := range []struct {
		name, v1Record, v1Dir, src, tmpl, ns, pvc string
	}{
		{"same base", "team/.fileshare-csi/data.json", "team/data", "smb://fs/share/team", "${pvc.metadata.namespace}/${pvc.metadata.name}", "data", "x"},
		{"root base", ".fileshare-csi/data.json", "data", "smb://fs/share/data", "${pvc.metadata.name}", "n", "x"},
		{"shorter base", ".fileshare-csi/team%2Fdata.json", "team/data", "smb://fs/share/team", "${pvc.metadata.namespace}/${pvc.metadata.name}", "data", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			ms := memshare.New()
			d := memshareDriver(t, ms)
			writeV1Volume(t, ms, tc.v1Record, tc.v1Dir)
			res, err := createIn(ctx, d, tc.src, tc.tmpl, "pvc-new", tc.ns, tc.pvc)
			if status.Code(err) != codes.AlreadyExists {
				t.Errorf("a claim inside a live v1 volume: %v, %v; want AlreadyExists", res.GetVolume().GetVolumeId(), err)
			}
			if names, err := ms.Client().List(ctx, tc.v1Dir, 10); err != nil || len(names) != 1 {
				t.Errorf("the v1 volume holds %v (%v), want only its file", names, err)
			}
		})
	}
}

// A volume whose directory is a v1 class's base (an earlier build let a
// claim adopt one) holds that class's v1 volumes, which have no holds:
// neither deleting nor archiving it may take them. Both are refused, and
// nothing moves.
func TestAVolumeHoldingAV1BaseIsNeitherDeletedNorArchived(t *testing.T) {
	for _, onDelete := range []string{"delete", "archive"} {
		t.Run(onDelete, func(t *testing.T) {
			ms := memshare.New()
			d := memshareDriver(t, ms)
			id := createOn(t, d, "team", onDelete)
			writeV1Volume(t, ms, "team/.fileshare-csi/data.json", "team/data")
			_, err := d.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: id})
			if status.Code(err) != codes.FailedPrecondition {
				t.Errorf("DeleteVolume (%s) of a volume holding a v1 base: %v, want FailedPrecondition", onDelete, err)
			}
			if got, err := ms.Client().ReadFile(context.Background(), "team/data/file.txt"); err != nil || string(got) != "v1 data" {
				t.Errorf("the v1 volume's file is now %q (%v)", got, err)
			}
		})
	}
}

// writeV1Volume puts a v1 volume on ms as an earlier build left it: its
// record at record, and a file in its directory dir.
func writeV1Volume(t *testing.T, ms *memshare.Share, record, dir string) {
	t.Helper()
	if err := ms.WriteFileDirect(record, []byte(`{"name":"pvc-old","capacityBytes":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect(dir+"/file.txt", []byte("v1 data")); err != nil {
		t.Fatal(err)
	}
}
