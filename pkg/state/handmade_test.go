package state

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
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

// TestAnArchiveNameTakenByHandIsLeftAsFound: a DeleteVolume (archive) cut
// before its rename saved its archive name and wrote that name's archive
// record and holds; a directory made by hand has the name since. The retry
// archives under another name, and the hand-made directory is left as
// found: no archive record calls it a deleted volume's, no hold names it.
func TestAnArchiveNameTakenByHandIsLeftAsFound(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: t0}
	sh := memshare.New()
	sc := takenArchiveNameScenario()
	sc.setup(t, storeOn(sh, c), sh)
	st := storeOn(sh, c)
	taken := "base/" + ArchivePrefix + "pvc-a"
	if _, err := st.c.ReadFile(ctx, st.archivePath(taken)); err != nil {
		t.Fatalf("the cut try wrote no archive record for %s to take back: %v", taken, err)
	}
	if err := sc.call(ctx, st); err != nil {
		t.Fatal(err)
	}
	if _, err := st.c.ReadFile(ctx, st.archivePath(taken)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the archive record of %s, made by hand, is left: %v", taken, err)
	}
	archives := 0
	for _, e := range sh.Dump() {
		switch {
		case strings.HasPrefix(e.Path, holdsDir+"/") && strings.HasSuffix(e.Path, "/"+st.key(taken)):
			t.Errorf("a hold names %s, made by hand: %s", taken, e.Path)
		case strings.HasPrefix(e.Path, archivesDir+"/") && !e.Dir:
			archives++
		case strings.HasPrefix(e.Path, "base/"+ArchivePrefix+"pvc-a-") && strings.HasSuffix(e.Path, "/d/e/c.txt"):
			archives++
		}
	}
	if archives != 2 {
		t.Errorf("want the volume archived under another name with its record: %d of the two found", archives)
	}
	if b, err := st.c.ReadFile(ctx, taken+"/mine.txt"); err != nil || string(b) != "an administrator's" {
		t.Errorf("the hand-made directory lost its file: %q, %v", b, err)
	}
}

// takenAtRename is a session on which a directory is made by hand at one
// path just before the first rename onto it, as an administrator might
// between an archive's look at its name and its rename.
type takenAtRename struct {
	share.Client
	sh   *memshare.Share
	path string
	done bool
}

func (c *takenAtRename) Rename(ctx context.Context, from, to string) error {
	if to == c.path && !c.done {
		c.done = true
		if err := c.sh.WriteFileDirect(to+"/mine.txt", []byte("an administrator's")); err != nil {
			return err
		}
	}
	return c.Client.Rename(ctx, from, to)
}

// TestAnArchiveNameTakenAtItsRenameIsLeftAsFound: the same, with the name
// taken within the call, between its look and its rename.
func TestAnArchiveNameTakenAtItsRenameIsLeftAsFound(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: t0}
	sh := memshare.New()
	baseDir(t, storeOn(sh, c), sh)
	rec := madeVolume(t, storeOn(sh, c), sh)
	taken := "base/" + ArchivePrefix + "pvc-a"
	st := New(&takenAtRename{Client: sh.Client(), sh: sh, path: taken}).WithClock(c.now, testUID)
	if _, _, err := st.Dispose(ctx, volPath, rec.UID, volume.Archive, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.c.ReadFile(ctx, st.archivePath(taken)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the archive record of %s, made by hand, is left: %v", taken, err)
	}
	for _, e := range sh.Dump() {
		if strings.HasPrefix(e.Path, holdsDir+"/") && strings.HasSuffix(e.Path, "/"+st.key(taken)) {
			t.Errorf("a hold names %s, made by hand: %s", taken, e.Path)
		}
	}
	if b, err := st.c.ReadFile(ctx, taken+"/mine.txt"); err != nil || string(b) != "an administrator's" {
		t.Errorf("the hand-made directory lost its file: %q, %v", b, err)
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
		c := &clock{t: t0}
		sh := memshare.New()
		st := storeOn(sh, c)
		if warm {
			warmShare(t, st, sh)
		} else {
			baseDir(t, st, sh)
		}
		must(t, sh.Client().Mkdir(ctx, volPath, 0o750))
		was, _ := entryAt(sh, volPath)
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
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if strings.HasPrefix(op.Path, volumesDir+"/") && !reads[op.Name] {
			return errDied
		}
		return nil
	})
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
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if strings.HasPrefix(op.Path, volumesDir+"/") && !reads[op.Name] {
			return errDied
		}
		return nil
	})
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
