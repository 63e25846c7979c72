package state

import (
	"context"
	"fmt"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// TestACutDeleteNeverTakesTheNextClaimAtItsPath: a DeleteVolume cut at
// any share operation, then the next claim at the same directory (a PVC
// made again under the same name, in a class whose subDir names the
// namespace and the claim) before the delete's retry comes. The CO
// retries the new claim until it is made, and each time it is refused
// meanwhile the old delete's retry comes first; then a pod writes into
// the new volume, the old delete is sent again (its answer was lost) and
// the reclaimer passes. The new volume, its record and what the pod wrote
// must all be there: the old ID's calls may only ever take the old volume.
// TestEveryCrashPointConverges sends the stale delete only after its
// retry finished (scenario.stale); this puts the new claim inside the
// cut.
func TestACutDeleteNeverTakesTheNextClaimAtItsPath(t *testing.T) {
	bg := context.Background()
	for _, sc := range scenarios() {
		if sc.stale == nil {
			continue // not a delete of pvc-a by its ID
		}
		t.Run(sc.name, func(t *testing.T) {
			c := &clock{t: t0}
			base := memshare.New()
			sc.setup(t, storeOn(base, c), base)
			ref := base.Clone()
			ref.SetHook(nil)
			if err := sc.call(bg, storeOn(ref, c)); err != nil {
				t.Fatalf("the uninterrupted call: %v", err)
			}
			for n := 1; n <= ref.Ops(); n++ {
				for _, mode := range []cutMode{dieBefore, dieAfter, cancelAt} {
					at := fmt.Sprintf("%s op %d", mode, n)
					sh := base.Clone()
					ctx, cancel := context.WithCancel(bg)
					sh.SetHook(cut(n, mode, cancel))
					_ = sc.call(ctx, storeOn(sh, c))
					cancel()
					sh.SetHook(nil)

					next := createReq()
					next.Name = "pvc-next"
					var made Record
					for try := 1; ; try++ {
						var err error
						if made, err = storeOn(sh, c).Create(bg, next); err == nil {
							break
						}
						if try == 4 {
							t.Fatalf("%s: the next claim is still refused: %v", at, err)
						}
						if err := answer(t, sh, c, sc.call); err != nil {
							t.Fatalf("%s: the delete's retry: %v", at, err)
						}
					}
					if err := sh.WriteFileDirect(volPath+"/next.txt", []byte("the next claim's")); err != nil {
						t.Fatal(err)
					}
					if err := answer(t, sh, c, sc.call); err != nil {
						t.Errorf("%s: the delete sent again: %v", at, err)
					}
					reclaim(t, at, sh, c)

					rec, err := storeOn(sh, c).record(bg, volPath)
					if err != nil || rec.UID != made.UID {
						t.Errorf("%s: the next claim's record is %+v (%v), want UID %s", at, rec, err, made.UID)
					}
					dir, _ := entryAt(sh, volPath)
					file, _ := entryAt(sh, volPath+"/next.txt")
					if !dir.Dir || dir.ID != made.RootID || file.Data != "the next claim's" {
						t.Errorf("%s: the next claim's directory is %+v (want ID %d), its file %+v", at, dir, made.RootID, file)
					}
				}
			}
		})
	}
}
