package state

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

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
			sh, c, was := handMadeShare(t, warm)
			st := storeOn(sh, c)
			for try := 1; try <= 3; try++ {
				cutAtCommit(sh)
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

// TestAnAbandonedRestoreKeepsAHandMadeDirectory: a restore into an
// administrator's empty directory whose copy was abandoned (never
// Populated, its claim gone): the reclaimer takes the record, holds and
// mark, but the directory was there before the driver's creates, and its
// intent, which stays while the volume is filled, says so. It is kept,
// with what the copy wrote, and reported.
func TestAnAbandonedRestoreKeepsAHandMadeDirectory(t *testing.T) {
	for _, warm := range []bool{false, true} {
		ctx := context.Background()
		sh, c, was := handMadeShare(t, warm)
		st := storeOn(sh, c)
		req := createReq()
		req.ContentSource = "snapshot-id"
		vol, err := st.Create(ctx, req)
		if err != nil || !vol.Populating {
			t.Fatalf("restore: %+v, %v", vol, err)
		}
		in, err := st.intent(ctx, volPath)
		if err != nil || in.AdoptedID != was.ID {
			t.Fatalf("warm %v: the intent of the restore says %d (%v), want %d", warm, in.AdoptedID, err, was.ID)
		}
		must(t, sh.WriteFileDirect(volPath+"/restored.txt", []byte("part of a copy")))
		reclaim(t, "abandoned restore", sh, c)
		if now, ok := entryAt(sh, volPath); !ok || now.ID != was.ID || !now.Dir {
			t.Errorf("warm %v: the reclaimer took the administrator's directory with the abandoned copy: %+v (there: %v), was %+v", warm, now, ok, was)
		}
	}
}

// TestAnEarlierBuildsDirectoryIsNotTakenForAnAdministrators: an earlier
// build's create at a path with a capital letter, cut after its MKDIR, is
// retried after the upgrade and cut again at its commit, then never
// retried: the directory is the earlier build's create's, and the
// reclaimer removes it, empty, as it did before AdoptedID (the earlier
// build's intent, at its unfolded key, is an intent at that directory).
func TestAnEarlierBuildsDirectoryIsNotTakenForAnAdministrators(t *testing.T) {
	ctx := context.Background()
	c := &clock{t0}
	sh := memshare.New()
	req := CreateRequest{Path: "Data/pvc-a", Name: "pvc-a", Perm: 0o777}
	earlierBuildsCutCreate(t, sh, c, req)
	cutAtCommit(sh)
	st := New(caseless{c: sh.Client(), tell: true}).WithClock(c.now, testUID)
	if _, err := st.Create(ctx, req); err == nil {
		t.Fatal("the retry was not cut at its commit")
	}
	sh.SetHook(nil)
	if in, err := st.intent(ctx, req.Path); err == nil && in.AdoptedID != 0 {
		t.Errorf("the retry's intent says the earlier build's directory was there before the driver's creates (AdoptedID %d)", in.AdoptedID)
	}
	reclaimerPasses(t, sh, c)
	if _, err := sh.Client().Stat(ctx, "data/pvc-a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory the earlier build's create made is orphaned: %v", err)
	}
}

// TestRetainedAdoptionKeptIsReported: a retained directory with data
// that a cut, never retried create was adopting is kept and reported
// (rep.Kept: the controller log and the kept-directories metric), as one
// a pod wrote into is.
func TestRetainedAdoptionKeptIsReported(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: t0}
	sh := memshare.New()
	st := storeOn(sh, c)
	retainedDir(t, st, sh)
	cutAtCommit(sh)
	if _, err := storeOn(sh, c).Create(ctx, createReq()); err == nil {
		t.Fatal("not cut")
	}
	sh.SetHook(nil)
	var r Reclaimer
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	c.t = c.t.Add(IntentTTL + time.Minute)
	rep, err := r.Pass(ctx, storeOn(sh, c), "s", lock)
	must(t, err)
	if rep.Intents != 1 || len(rep.Kept) != 1 {
		t.Errorf("reclaim report %+v: the retained directory with data is not reported kept", rep)
	}
}

// handMadeShare is a share, new or warm (batched.go), with an empty
// directory made by hand where pvc-a's goes; was is that directory.
func handMadeShare(t *testing.T, warm bool) (sh *memshare.Share, c *clock, was memshare.Entry) {
	t.Helper()
	c = &clock{t: t0}
	sh = memshare.New()
	if warm {
		warmHandMadeDir(t, storeOn(sh, c), sh)
	} else {
		handMadeDir(t, storeOn(sh, c), sh)
	}
	was, _ = entryAt(sh, volPath)
	return sh, c, was
}

// atCommit says whether op writes a volume's record: a hook that fails it
// cuts a create at its commit, with everything before it done.
func atCommit(op memshare.Op) bool {
	return strings.HasPrefix(op.Path, volumesDir+"/") && !reads[op.Name]
}

// cutAtCommit cuts every create on sh at its commit, until the hook is
// set again.
func cutAtCommit(sh *memshare.Share) {
	sh.SetHook(func(op memshare.Op, _ memshare.When) error {
		if atCommit(op) {
			return errDied
		}
		return nil
	})
}
