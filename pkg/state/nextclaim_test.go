package state

import (
	"context"
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
			c, base, ref, err := uncut(t, sc.setup, sc.call)
			if err != nil {
				t.Fatalf("the uninterrupted call: %v", err)
			}
			eachCut(base, c, ref.Ops(), sc.call, func(at string, sh *memshare.Share, _ error) {
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
			})
		})
	}
}

// TestEveryCutCreateGivesWayToAnotherClaim: a CreateVolume cut at any
// share operation and never answered, then another claim whose subDir
// resolves to the same directory, before the first claim's retry. When the
// cut came before the first's commit the other claim gets the directory,
// as if it had come first (TestAnotherClaimTakesAnUnfinishedCreatesPlace
// at one cut); after it, the other is refused. Whichever it is, a pod
// writes into the volume the other claim got, the first claim's late retry
// comes and the reclaimer passes: the other's volume, record and file are
// all there, the first's retry is refused, and no intent is left.
func TestEveryCutCreateGivesWayToAnotherClaim(t *testing.T) {
	bg := context.Background()
	for _, sc := range append(scenarios(), warmScenarios()...) {
		if !sc.create {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			c, base, ref, refErr := uncut(t, sc.setup, sc.call)
			took := 0
			eachCut(base, c, ref.Ops(), sc.call, func(at string, sh *memshare.Share, cutErr error) {
				if cutErr == nil {
					return // answered: the claim is the first's
				}
				other := CreateRequest{Path: sc.volDir(), Name: "pvc-other", CapacityBytes: 1 << 30, Perm: 0o777}
				made, err := storeOn(sh, c).Create(bg, other)
				if err != nil && refErr != nil {
					// What refuses the first claim's directory (a link
					// to another volume, say) refuses the other's too.
					if !sameRefusal(err, refErr) {
						t.Errorf("%s: the other claim was refused (%v), the first (%v)", at, err, refErr)
					}
					return
				}
				if err != nil {
					// The first committed: the directory is its volume's.
					if rec, rerr := storeOn(sh, c).record(bg, sc.volDir()); rerr != nil || rec.Name == "pvc-other" {
						t.Errorf("%s: the other claim was refused (%v) with no other volume's record there: %+v, %v", at, err, rec, rerr)
					}
					return
				}
				took++
				if err := sh.WriteFileDirect(sc.volDir()+"/other.txt", []byte("the other claim's")); err != nil {
					t.Fatal(err)
				}
				if err := answer(t, sh, c, sc.call); err == nil {
					t.Errorf("%s: the first claim's late retry succeeded, at a directory another claim has", at)
				}
				reclaim(t, at, sh, c)
				rec, err := storeOn(sh, c).record(bg, sc.volDir())
				if err != nil || rec.UID != made.UID {
					t.Errorf("%s: the other claim's record is %+v (%v), want UID %s", at, rec, err, made.UID)
				}
				dir, _ := entryAt(sh, sc.volDir())
				file, _ := entryAt(sh, sc.volDir()+"/other.txt")
				if !dir.Dir || dir.ID != made.RootID || file.Data != "the other claim's" {
					t.Errorf("%s: the other claim's directory is %+v (want ID %d), its file %+v", at, dir, made.RootID, file)
				}
				if names, _ := storeOn(sh, c).list(bg, intentsDir); len(names) > 0 {
					t.Errorf("%s: intents left: %v", at, names)
				}
			})
			if took == 0 && refErr == nil {
				t.Error("no cut left the directory to the other claim: the test tests nothing")
			}
		})
	}
}

// TestNoCutCreateEndsWithAVolumeInsideAnother: a CreateVolume cut at any
// share operation, then a claim whose directory lies inside the first's
// (another class's subDir template), or above it, before the first's
// retry. However the cut fell, the two never both end as volumes one
// inside the other: a DeleteVolume of the outer one would walk into the
// inner one's data. The reclaimer's passes and a second retry of each
// change nothing of that.
func TestNoCutCreateEndsWithAVolumeInsideAnother(t *testing.T) {
	bg := context.Background()
	var first scenario
	for _, sc := range scenarios() {
		if sc.name == "CreateVolume" {
			first = sc
		}
	}
	for _, other := range []CreateRequest{
		{Path: volPath + "/inner", Name: "pvc-inner", CapacityBytes: 1 << 30, Perm: 0o777},
		{Path: "base", Name: "pvc-outer", CapacityBytes: 1 << 30, Perm: 0o777},
	} {
		t.Run(other.Name, func(t *testing.T) {
			c, base, ref, err := uncut(t, first.setup, first.call)
			if err != nil {
				t.Fatal(err)
			}
			eachCut(base, c, ref.Ops(), first.call, func(at string, sh *memshare.Share, _ error) {
				_, otherErr := storeOn(sh, c).Create(bg, other)
				firstErr := answer(t, sh, c, first.call)
				if retryable(otherErr) {
					// Told to wait while the first is being made.
					if _, otherErr = storeOn(sh, c).Create(bg, other); retryable(otherErr) {
						t.Fatalf("%s: the other claim, once the first is answered: %v", at, otherErr)
					}
				}
				reclaim(t, at, sh, c)
				// Each claim's CO sends it again: the answers stand.
				if err := answer(t, sh, c, first.call); (err == nil) != (firstErr == nil) {
					t.Errorf("%s: the first claim answered %v, then %v", at, firstErr, err)
				}
				if _, err := storeOn(sh, c).Create(bg, other); (err == nil) != (otherErr == nil) {
					t.Errorf("%s: the other claim answered %v, then %v", at, otherErr, err)
				}
				if otherErr == nil && firstErr == nil {
					t.Errorf("%s: both claims made volumes, %s and %s, one inside the other", at, volPath, other.Path)
				}
				if otherErr != nil && firstErr != nil {
					t.Errorf("%s: both claims refused: %v; %v", at, firstErr, otherErr)
				}
			})
		})
	}
}
