package driver

import (
	"context"
	"testing"

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
			if err := ms.WriteFileDirect(tc.v1Record, []byte(`{"name":"pvc-old","capacityBytes":1}`)); err != nil {
				t.Fatal(err)
			}
			if err := ms.WriteFileDirect("team/data/file.txt", []byte("v1 data")); err != nil {
				t.Fatal(err)
			}
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
