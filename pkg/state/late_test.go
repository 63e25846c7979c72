package state

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// TestLateRequestsConverge: a controller killed just after it sent a
// request does not take the request back, nor does a call its deadline
// cut. The server may run it late, after the retry has looked at the
// share: it was still in the server's queue (the fault test met one on
// Ganesha: a killed try's rename of the intent onto its root's mark ran
// after the next process's retry read the intent, and the retry's own
// rename found no such file). Each operation of each scenario is held so,
// and lands:
//   - before each operation of the retry up to its first write (the retry's
//     reads overtaken), and
//   - just before the retry's own try of the same step (the same operation
//     on the same path), wherever it comes: two tries of one step, the late
//     one first.
//
// The retry must answer as an uninterrupted call does, and after the
// reclaimer's passes the share must be as after an uninterrupted call's.
// Not covered: a late write that lands after the retry wrote something
// else (two writers of one record at once: the older may land last); no
// file protocol here fences a dead client's requests (docs/data-safety.md).
// Copies (copyScenarios) take the second point alone: a late write of a
// file's data that overtakes the copy's reads lands in the copy's data,
// which no step of the copy reads again.
func TestLateRequestsConverge(t *testing.T) {
	copies := map[string]bool{}
	for _, sc := range copyScenarios() {
		copies[sc.name] = true
	}
	for _, sc := range append(append(scenarios(), warmScenarios()...), copyScenarios()...) {
		t.Run(sc.name, func(t *testing.T) {
			c := &clock{t: t0}
			base := memshare.New()
			sc.setup(t, storeOn(base, c), base)

			ref := base.Clone()
			refErr := sc.call(context.Background(), storeOn(ref, c))
			if retryable(refErr) {
				t.Fatalf("the uninterrupted call failed: %v", refErr)
			}
			ops := ref.Ops()
			// The reclaimer passes after each retry: its passes over the
			// uninterrupted call's share are the mark (a volume still to
			// be filled, never filled, goes).
			reclaim(t, "the uninterrupted call", ref, c)
			want := canon(ref.Dump())
			for n := 1; n <= ops; n++ {
				for m := 0; ; m++ {
					sh := base.Clone()
					var heldOp memshare.Op
					sh.SetHook(func(op memshare.Op, when memshare.When) error {
						switch {
						case op.N < n:
							return nil
						case op.N == n && when == memshare.Before:
							heldOp = op
							return memshare.Hold
						}
						return errDied
					})
					if err := sc.call(context.Background(), storeOn(sh, c)); err == nil {
						// Only a best-effort step fails unseen: nothing was held.
						break
					}
					// m == 0: just before the retry's try of the same step.
					released, wrote := false, false
					sh.SetHook(func(op memshare.Op, when memshare.When) error {
						if when != memshare.Before || released {
							return nil
						}
						if m == 0 && op.Name == heldOp.Name && op.Path == heldOp.Path || m > 0 && op.N == m && !wrote {
							released = true
							return memshare.Release
						}
						wrote = wrote || !reads[op.Name]
						return nil
					})
					at := fmt.Sprintf("op %d (%s %s) held until the retry's op %d", n, heldOp.Name, heldOp.Path, m)
					if m == 0 {
						at = fmt.Sprintf("op %d (%s %s) held until the retry's own try of it", n, heldOp.Name, heldOp.Path)
					}
					var got error
					for try := 0; try < 4; try++ {
						if got = sc.call(context.Background(), storeOn(sh, c)); !retryable(got) {
							break
						}
						if m == 0 && released {
							// The late twin did the step: the retry takes it
							// for done, never for a failure of its own.
							t.Errorf("%s: the retry failed: %v", at, got)
						}
					}
					if !released || copies[sc.name] && m > 0 {
						if m == 0 {
							continue // the retry takes another way
						}
						break
					}
					if (got == nil) != (refErr == nil) || !sameRefusal(got, refErr) {
						t.Errorf("%s: the retry answered %v, the uninterrupted call %v", at, got, refErr)
					}
					reclaim(t, at, sh, c)
					if diff := compare(sameMarks(dropEmptyDirs(want)), sameMarks(dropEmptyDirs(canon(sh.Dump())))); diff != "" {
						t.Errorf("%s: the share after the retry differs from an uninterrupted call's:\n%s", at, diff)
					}
				}
			}
		})
	}
}

// reclaim has the reclaimer pass three times, IntentTTL apart, with no
// call or copy running (the process that made them is gone): what a cut
// call or a late request left (a temporary, an intent, a quarantine) is
// its to clear. at says where, for a failure.
func reclaim(t *testing.T, at string, sh *memshare.Share, c0 *clock) {
	t.Helper()
	c := &clock{t: c0.t}
	if err := threePasses(c, func() *Store { return storeOn(sh, c) }); err != nil {
		t.Fatalf("%s: reclaim: %v", at, err)
	}
}

// threePasses has the reclaimer pass three times on the store on(),
// IntentTTL and a minute apart on c, with no call or copy running.
func threePasses(c *clock, on func() *Store) error {
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	for range 3 {
		c.t = c.t.Add(IntentTTL + time.Minute)
		if _, err := r.Pass(context.Background(), on(), "share", lock); err != nil {
			return err
		}
	}
	return nil
}

// sameMarks writes a volume's root mark as one line whatever it holds: an
// empty file and its create's intent (markRoot) name no path, and say the
// same.
func sameMarks(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.HasPrefix(l, ".fileshare-csi/roots/") && !strings.Contains(l, `"paths"`) {
			l, _, _ = strings.Cut(l, " ")
		}
		out[i] = l
	}
	return out
}

// reads are the operations that change nothing on the share.
var reads = map[string]bool{"capacity": true, "ids": true, "list": true, "lookup": true, "lstat": true, "open": true,
	"read": true, "readdir": true, "readdir page": true, "readlink": true, "stat": true}

// cutDeleteAfter runs pvc-a's DeleteVolume (delete) on a volume with data
// and kills it just after the first operation whose name and path match.
func cutDeleteAfter(t *testing.T, opName, pathPart string, nth int) (*memshare.Share, *clock, Record) {
	t.Helper()
	c := &clock{t: t0}
	sh := memshare.New()
	st := storeOn(sh, c)
	baseDir(t, st, sh)
	rec := madeVolume(t, st, sh)
	dead, seen := false, 0
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if dead {
			return errDied
		}
		if when == memshare.After && op.Name == opName && strings.Contains(op.Path, pathPart) {
			seen++
			dead = seen == nth
		}
		return nil
	})
	if _, _, err := storeOn(sh, c).Dispose(context.Background(), volPath, rec.UID, volume.Delete, nil); err == nil {
		t.Fatal("the delete was not cut")
	}
	sh.SetHook(nil)
	return sh, c, rec
}

func quarantined(sh *memshare.Share, uid string) bool {
	for _, e := range sh.Dump() {
		if e.Path == Quarantine(uid) {
			return true
		}
	}
	return false
}

// The reclaimer's sweep of quarantines counts only what it removed: a
// DeleteVolume cut after its rename into the quarantine, before it
// dropped the root's mark, its record then removed by hand, left a top the
// purge (RootID 0) takes for another root's and keeps (purge answers nil,
// and logs it).
func TestQuarantineSweepCountsOnlyWhatItRemoved(t *testing.T) {
	sh, c, rec := cutDeleteAfter(t, "rename", Quarantine(""), 2) // the first finds no deleting/ yet
	if err := storeOn(sh, c).c.Remove(context.Background(), storeOn(sh, c).recordPath(rec.Path)); err != nil {
		t.Fatal(err)
	}
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	total := 0
	for range 4 {
		c.t = c.t.Add(IntentTTL + time.Minute)
		rep, err := r.Pass(context.Background(), storeOn(sh, c), "share", lock)
		if err != nil {
			t.Fatal(err)
		}
		total += rep.Quarantines
	}
	if !quarantined(sh, rec.UID) {
		t.Fatal("the sweep removed a quarantine whose top a root mark names")
	}
	if total > 0 {
		t.Errorf("the quarantine is still there, yet the passes counted %d reclaimed", total)
	}
}

// A DeleteVolume cut after it dropped the root's mark, before its purge:
// the record is still there and waits for the delete's retry, and until
// then another claim at the same directory is told to wait (ErrBusy: the
// quarantine, beingDeleted). The sweep leaves a quarantine a record names:
// purged, the claim would be refused for good instead (ErrConflict,
// "already belongs to volume pvc-a"), though the volume is being deleted.
func TestQuarantineSweepLeavesWhatARecordNames(t *testing.T) {
	sh, c, rec := cutDeleteAfter(t, "remove", RootsDir+"/", 1)
	if !quarantined(sh, rec.UID) {
		t.Fatal("setup: nothing in the quarantine")
	}
	other := CreateRequest{Path: volPath, Name: "pvc-b", CapacityBytes: 1 << 30, Perm: 0o777}
	if _, err := storeOn(sh.Clone(), c).Create(context.Background(), other); !errors.Is(err, ErrBusy) {
		t.Fatalf("before the sweep: %v, want ErrBusy", err)
	}
	reclaim(t, "after the cut delete", sh, c)
	if _, err := storeOn(sh, c).record(context.Background(), volPath); err != nil {
		t.Fatalf("the record went: %v", err)
	}
	if _, err := storeOn(sh, c).Create(context.Background(), other); !errors.Is(err, ErrBusy) {
		t.Errorf("after the sweep, with pvc-a's record still there: %v, want ErrBusy", err)
	}
}
