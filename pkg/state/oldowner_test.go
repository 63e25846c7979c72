package state

import (
	"context"
	"errors"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// TestAnOldVolumesDirectoryOutlivesAnotherClaimsCutCreate: a create of
// another claim at an existing volume's directory, cut short after its
// MKDIR found the directory there and before it dropped its intent, leaves
// an intent that cannot say the directory was there first. When the
// volume's record is one of a version before root IDs (no RootID, no root
// mark), nothing tells the volume's own empty directory from one that
// create made: neither the claim's retry (refused) nor the reclaimer may
// remove it. A record with a root ID tells, and the crash harness holds
// that case (a directory such a create made goes).
func TestAnOldVolumesDirectoryOutlivesAnotherClaimsCutCreate(t *testing.T) {
	for _, then := range []string{"the claim's retry", "the reclaimer"} {
		t.Run(then, func(t *testing.T) {
			ctx := context.Background()
			c := &clock{t: t0}
			sh := memshare.New()
			st := storeOn(sh, c)
			baseDir(t, st, sh)
			old, err := st.Create(ctx, createReq())
			if err != nil {
				t.Fatal(err)
			}
			// As a version before root IDs wrote it.
			if err := sh.Client().Remove(ctx, rootMarker(old.RootID)); err != nil {
				t.Fatal(err)
			}
			old.RootID = 0
			if err := st.writeJSON(ctx, st.recordPath(volPath), old); err != nil {
				t.Fatal(err)
			}
			was, _ := entryAt(sh, volPath)

			other := createReq()
			other.Name = "pvc-other"
			// Cut at the read of the record, after the MKDIR found the
			// directory.
			mkdirDone := false
			sh.SetHook(func(op memshare.Op, when memshare.When) error {
				if op.Name == "mkdir" && op.Path == volPath {
					mkdirDone = true
				}
				if mkdirDone && op.Name == "read" && op.Path == st.recordPath(volPath) {
					return errDied
				}
				return nil
			})
			_, err = st.Create(ctx, other)
			sh.SetHook(nil)
			if !errors.Is(err, errDied) {
				t.Fatalf("the cut create answered %v", err)
			}
			if in, err := st.intent(ctx, volPath); err != nil || in.Name != "pvc-other" || in.AdoptedID != 0 {
				t.Fatalf("the cut left the intent %+v (%v), want pvc-other's, saying nothing of the directory", in, err)
			}

			switch then {
			case "the claim's retry":
				if _, err := st.Create(ctx, other); !errors.Is(err, ErrConflict) {
					t.Fatalf("the retry answered %v, want the refusal", err)
				}
			default:
				reclaim(t, then, sh, c)
			}
			if now, ok := entryAt(sh, volPath); !ok || !now.Dir || now.ID != was.ID {
				t.Fatalf("after %s, the old volume's directory is %+v (there: %v), was %+v", then, now, ok, was)
			}
			if _, err := st.intent(ctx, volPath); err == nil {
				t.Error("the intent of the refused claim is left")
			}
		})
	}
}
