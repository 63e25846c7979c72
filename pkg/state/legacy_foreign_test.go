package state

import (
	"context"
	"errors"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A v1 volume b whose directory became another class's session root (a
// nested export, as in TestADeleteNeverTakesAnotherClasssSessionRoot):
// its DeleteVolume must refuse as a UID volume's does, not take B's volumes.
func TestAV1DeleteNeverTakesAnotherClasssSessionRoot(t *testing.T) {
	ctx := context.Background()
	for _, onDelete := range []volume.OnDelete{volume.Delete, volume.Archive} {
		t.Run(string(onDelete), func(t *testing.T) {
			sh := memshare.New()
			st := storeOn(sh, &clock{t0})
			if err := st.writeJSON(ctx, LegacyRecordPath("base", "b"), Record{Name: "pvc-b", CapacityBytes: 1}); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"base/b/" + volumesDir + "/x.json", "base/b/db/secret.txt"} {
				if err := sh.WriteFileDirect(f, []byte("class B's")); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err := st.DisposeLegacy(ctx, "base", "b", onDelete)
			if !errors.Is(err, ErrConflict) {
				t.Errorf("DisposeLegacy(%s) = %v, want ErrConflict", onDelete, err)
			}
			if _, err := sh.Client().Stat(ctx, "base/b/db/secret.txt"); err != nil {
				t.Errorf("class B's volume is gone from its root: %v", err)
			}
		})
	}
}
