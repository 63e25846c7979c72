package state

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// TestDisposeLegacy: a v1 volume (no UID) is deleted, retained or archived
// in place as its class says, and its record goes; a second DeleteVolume
// finds nothing left (ErrNotFound, which the driver answers with success).
func TestDisposeLegacy(t *testing.T) {
	ctx := context.Background()
	for _, onDelete := range []volume.OnDelete{volume.Delete, volume.Retain, volume.Archive} {
		t.Run(string(onDelete), func(t *testing.T) {
			sh := memshare.New()
			st := storeOn(sh, &clock{t0})
			c := sh.Client()
			if err := sh.WriteFileDirect("base/pvc-1/a.txt", []byte("data")); err != nil {
				t.Fatal(err)
			}
			if err := st.writeJSON(ctx, LegacyRecordPath("base", "pvc-1"), Record{Name: "pvc-1", CapacityBytes: 1}); err != nil {
				t.Fatal(err)
			}
			archive, done, err := st.DisposeLegacy(ctx, "base", "pvc-1", onDelete)
			if err != nil || !done {
				t.Fatalf("DisposeLegacy = %q, %v, %v", archive, done, err)
			}
			_, dirErr := c.Stat(ctx, "base/pvc-1/a.txt")
			switch onDelete {
			case volume.Retain:
				if dirErr != nil || archive != "" {
					t.Errorf("retained: the data is %v, archive %q", dirErr, archive)
				}
			case volume.Archive:
				if !errors.Is(dirErr, fs.ErrNotExist) || archive == "" {
					t.Fatalf("archived: the directory is %v, archive %q", dirErr, archive)
				}
				if _, err := c.Stat(ctx, archive+"/a.txt"); err != nil {
					t.Errorf("the archive %s lacks the data: %v", archive, err)
				}
			default:
				if !errors.Is(dirErr, fs.ErrNotExist) || archive != "" {
					t.Errorf("deleted: the data is %v, archive %q", dirErr, archive)
				}
			}
			if _, err := c.Stat(ctx, LegacyRecordPath("base", "pvc-1")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the v1 record is still there: %v", err)
			}
			// Nor a record of the new layout: one would claim the path for
			// a volume that is gone, and refuse the next claim there.
			if _, err := c.Stat(ctx, recordPath("base/pvc-1")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a new-layout record was left: %v", err)
			}
			if _, done, err := st.DisposeLegacy(ctx, "base", "pvc-1", onDelete); !errors.Is(err, ErrNotFound) || done {
				t.Errorf("second DisposeLegacy = %v, %v; want ErrNotFound, not done", done, err)
			}
		})
	}
}
