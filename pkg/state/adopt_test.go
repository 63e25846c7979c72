package state

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// TestAHandMadeDirectoryOutlivesCutRetries: an administrator's empty
// directory that a claim's creates found, each cut short before its
// commit, and that nobody asks for any more, is kept by the reclaimer. The
// first create learns the directory was there before it (its intent says
// so: Record.AdoptedID); every retry's MKDIR finds the directory just as
// it finds one an earlier try made, so only the intent it replaces tells
// it, and it carries that on. The crash harness cuts one try at a time;
// this cuts three in a row, on the step-by-step way and the batched one.
func TestAHandMadeDirectoryOutlivesCutRetries(t *testing.T) {
	for _, warm := range []bool{false, true} {
		name := "new share"
		if warm {
			name = "warm share"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := &clock{t: t0}
			sh := memshare.New()
			st := storeOn(sh, c)
			if warm {
				warmShare(t, st, sh)
			} else {
				baseDir(t, st, sh)
			}
			if err := sh.Client().Mkdir(ctx, volPath, 0o750); err != nil {
				t.Fatal(err)
			}
			was, _ := entryAt(sh, volPath)
			for try := 1; try <= 3; try++ {
				// Cut at the commit: everything before it happened.
				sh.SetHook(func(op memshare.Op, when memshare.When) error {
					if strings.HasPrefix(op.Path, volumesDir+"/") && !reads[op.Name] {
						return errDied
					}
					return nil
				})
				_, err := storeOn(sh, c).Create(ctx, createReq())
				sh.SetHook(nil)
				if err == nil {
					t.Fatalf("try %d was not cut at its commit", try)
				}
				in, err := st.intent(ctx, volPath)
				if err != nil || in.AdoptedID != was.ID {
					t.Fatalf("after try %d the intent says the directory there first is %d (%v), want %d", try, in.AdoptedID, err, was.ID)
				}
			}
			reclaim(t, "three tries cut", sh, c)
			if now, ok := entryAt(sh, volPath); !ok || now.ID != was.ID || !now.Dir {
				t.Fatalf("the reclaimer took the administrator's directory: %+v (there: %v), was %+v", now, ok, was)
			}
			if _, err := st.intent(ctx, volPath); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the intent is left: %v", err)
			}
			// Nothing else of the creates is left: no hold, no record.
			for _, e := range sh.Dump() {
				if !e.Dir && strings.HasPrefix(e.Path, Dir+"/") && !strings.Contains(e.Path, "pvc-warm") && !strings.HasPrefix(e.Path, rootsDir+"/") {
					t.Errorf("left on the share: %s", e.Path)
				}
			}
		})
	}
}
