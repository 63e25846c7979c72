package state

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// caseless is a session on a share whose server takes names differing only
// in case for one name, as SMB servers do (Windows; Samba for SMB2/3
// clients by default): every path names what its lower-case spelling names
// on the memshare below. tell says whether it says so (CaseInsensitive),
// as the SMB client does; a store before keys were folded never asked.
type caseless struct {
	c    share.Client
	tell bool
}

func fold(p string) string { return strings.ToLower(p) }

func (f caseless) CaseInsensitive() bool { return f.tell }
func (f caseless) Stat(ctx context.Context, p string) (share.FileInfo, error) {
	return f.c.Stat(ctx, fold(p))
}
func (f caseless) Mkdir(ctx context.Context, p string, perm fs.FileMode) error {
	return f.c.Mkdir(ctx, fold(p), perm)
}
func (f caseless) RemoveAll(ctx context.Context, p string, o share.RemoveOptions) error {
	return f.c.RemoveAll(ctx, fold(p), o)
}
func (f caseless) Rename(ctx context.Context, a, b string) error {
	return f.c.Rename(ctx, fold(a), fold(b))
}
func (f caseless) Replace(ctx context.Context, a, b string) error {
	return f.c.Replace(ctx, fold(a), fold(b))
}
func (f caseless) List(ctx context.Context, p string, max int) ([]string, error) {
	return f.c.List(ctx, fold(p), max)
}
func (f caseless) WriteFile(ctx context.Context, p string, d []byte) error {
	return f.c.WriteFile(ctx, fold(p), d)
}
func (f caseless) ReadFile(ctx context.Context, p string) ([]byte, error) {
	return f.c.ReadFile(ctx, fold(p))
}
func (f caseless) Remove(ctx context.Context, p string) error { return f.c.Remove(ctx, fold(p)) }
func (f caseless) Capacity(ctx context.Context) (share.Capacity, error) {
	return f.c.Capacity(ctx)
}
func (f caseless) Prefix() string { return "" }
func (f caseless) Close() error   { return nil }
func (f caseless) CreateFile(ctx context.Context, p string, d []byte) error {
	return f.c.(share.Creator).CreateFile(ctx, fold(p), d)
}
func (f caseless) RemoveDir(ctx context.Context, p string) error {
	return f.c.(share.Rmdirer).RemoveDir(ctx, fold(p))
}
func (f caseless) Batch(ctx context.Context, ops []share.Op, ordered bool) []share.Result {
	folded := make([]share.Op, len(ops))
	for i, op := range ops {
		op.Path = fold(op.Path)
		folded[i] = op
	}
	return f.c.(share.Batcher).Batch(ctx, folded, ordered)
}

// On a caseless share two spellings of one directory are one directory:
// the nesting guards, keyed by path, must see one too. Otherwise a volume
// made at Data/team (another class's base spelled otherwise) adopts the
// directory that holds volume data/team/pvc-x, and its DeleteVolume moves
// pvc-x's data into the quarantine; or a volume is made inside another.
func TestTwoSpellingsOfOneDirectoryAreOneToTheNestingGuards(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ first, second string }{
		{"data/team/pvc-x", "Data/team"},   // a volume around one made earlier
		{"Data/team", "data/TEAM/pvc-x"},   // a volume inside one made earlier
		{"base/pvc-a", "BASE/Pvc-A"},       // the same directory, another claim
		{"Data/Team/pvc-x", "data/team"},   // both spelled otherwise than folded
		{"data/team", "Data/Team/sub/pvc"}, // deeper
	} {
		t.Run(c.first+" then "+c.second, func(t *testing.T) {
			sh := memshare.New()
			st := New(caseless{c: sh.Client(), tell: true}).WithClock((&clock{t0}).now, testUID)
			warmShare(t, st, sh) // the batches, as every call after a share's first
			first, err := st.Create(ctx, CreateRequest{Path: c.first, Name: "first", Perm: 0o777})
			if err != nil {
				t.Fatal(err)
			}
			must(t, sh.WriteFileDirect(fold(c.first)+"/db", []byte("first's data")))
			if _, err := st.Create(ctx, CreateRequest{Path: c.second, Name: "second", Perm: 0o777}); !errors.Is(err, ErrConflict) {
				t.Fatalf("a volume at %s with volume %s made: %v, want ErrConflict", c.second, c.first, err)
			}
			// Nothing of the refused call is left, and the first volume is
			// whole, and goes as it should.
			if err := hasData(ctx, sh.Client(), fold(c.first)+"/db", "first's data"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := st.Dispose(ctx, first.Path, first.UID, volume.Delete, nil); err != nil {
				t.Fatal(err)
			}
			for _, e := range sh.Dump() {
				if !e.Dir && e.Path != "base/bystander/keep.txt" {
					t.Errorf("left after both calls: %s", e.Path)
				}
			}
		})
	}
}

// A record a version before keys were folded wrote under a path with a
// capital letter is found there (the volume is deleted, not answered as
// gone), moved to its folded key, and from then on guards its directory
// against every spelling.
func TestARecordKeyedByItsOwnSpellingIsMovedToItsFoldedKey(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	old := New(caseless{c: sh.Client()}).WithClock((&clock{t0}).now, testUID)
	rec, err := old.Create(ctx, CreateRequest{Path: "Data/team/pvc-x", Name: "pvc-x", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	must(t, sh.WriteFileDirect("data/team/pvc-x/db", []byte("pvc-x's data")))
	st := New(caseless{c: sh.Client(), tell: true}).WithClock((&clock{t0}).now, testUID)
	got, err := st.Get(ctx, rec.Path, rec.UID)
	if err != nil || got.UID != rec.UID {
		t.Fatalf("the record written before keys were folded: %+v, %v", got, err)
	}
	if _, err := sh.Client().Stat(ctx, recordPath(rec.Path)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the record is still under its old key: %v", err)
	}
	if _, err := st.Create(ctx, CreateRequest{Path: "data/TEAM", Name: "outer", Perm: 0o777}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a volume around it, spelled otherwise: %v, want ErrConflict", err)
	}
	if _, _, err := st.Dispose(ctx, rec.Path, rec.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := sh.Client().Stat(ctx, "data/team/pvc-x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the volume's directory is left: %v", err)
	}
	// Not moved yet when deleted: found all the same.
	sh2 := memshare.New()
	old = New(caseless{c: sh2.Client()}).WithClock((&clock{t0}).now, testUID)
	rec, err = old.Create(ctx, CreateRequest{Path: "Data/pvc-y", Name: "pvc-y", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	st = New(caseless{c: sh2.Client(), tell: true}).WithClock((&clock{t0}).now, testUID)
	if _, disposed, err := st.Dispose(ctx, rec.Path, rec.UID, volume.Delete, nil); err != nil || !disposed {
		t.Fatalf("delete of a volume whose record has its old key: disposed %v, %v", disposed, err)
	}
	if _, err := sh2.Client().Stat(ctx, "data/pvc-y"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the volume's directory is left: %v", err)
	}
}

// The driver's own names in another case are its own to a caseless
// server: a volume at .FileShare-CSI/x or Archived-x is refused there, and
// made on a server that tells case apart.
func TestTheDriversNamesInAnyCaseOnACaselessShare(t *testing.T) {
	ctx := context.Background()
	for _, p := range []string{".FileShare-CSI/x", "base/Archived-x"} {
		st := New(caseless{c: memshare.New().Client(), tell: true})
		if _, err := st.Create(ctx, CreateRequest{Path: p, Name: "x", Perm: 0o777}); !errors.Is(err, ErrInvalid) {
			t.Errorf("a volume at %s on a caseless share: %v, want ErrInvalid", p, err)
		}
		if _, err := New(memshare.New().Client()).Create(ctx, CreateRequest{Path: p, Name: "x", Perm: 0o777}); err != nil {
			t.Errorf("a volume at %s on a share that tells case apart: %v", p, err)
		}
	}
}

// R1: a volume an earlier build made under a spelling with a capital
// letter, and that no call has read since the upgrade, must still guard
// its directory against a volume made around it (or inside it) under the
// lower-case spelling: the migration happens only when the record is
// read, and the nesting checks of "data/team" look only at folded keys.
func TestAnEarlierBuildsRecordGuardsOtherSpellingsAfterTheFirstPass(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ first, second string }{
		{"Data/team/pvc-x", "data/team"},    // around it
		{"Data/outer", "data/outer/pvc-in"}, // inside it
	} {
		t.Run(c.first+" then "+c.second, func(t *testing.T) {
			sh := memshare.New()
			old := New(caseless{c: sh.Client()}).WithClock((&clock{t0}).now, testUID)
			warmShare(t, old, sh)
			if _, err := old.Create(ctx, CreateRequest{Path: c.first, Name: "first", Perm: 0o777}); err != nil {
				t.Fatal(err)
			}
			must(t, sh.WriteFileDirect(fold(c.first)+"/db", []byte("first's data")))
			st := New(caseless{c: sh.Client(), tell: true}).WithClock((&clock{t0}).now, testUID)
			var r Reclaimer
			if _, err := r.Pass(ctx, st, "share", func(context.Context, string) (func(), error) { return func() {}, nil }); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Create(ctx, CreateRequest{Path: c.second, Name: "second", Perm: 0o777}); !errors.Is(err, ErrConflict) {
				t.Fatalf("a volume at %s with the earlier build's volume %s: %v, want ErrConflict", c.second, c.first, err)
			}
		})
	}
}

// The create an earlier build began at a path with a capital letter, cut
// short and never retried, is rolled back by the reclaimer as before:
// its intent is moved to its folded key first (it was skipped for good).
func TestTheReclaimerUndoesAnEarlierBuildsCutCreateAtACapitalPath(t *testing.T) {
	ctx := context.Background()
	c := &clock{t0}
	sh := memshare.New()
	earlierBuildsCutCreate(t, sh, c, CreateRequest{Path: "Data/pvc-a", Name: "pvc-a", Perm: 0o777})
	reclaimerPasses(t, sh, c)
	if _, err := sh.Client().Stat(ctx, intentPath("Data/pvc-a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the earlier build's intent is never reclaimed: %v", err)
	}
	if _, err := sh.Client().Stat(ctx, "data/pvc-a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cut create's empty directory is never reclaimed: %v", err)
	}
}

// The same cut create, retried after the upgrade, commits under the folded
// key; the reclaimer removes the earlier build's intent, which that create
// superseded. (It stayed, and the earlier build's hold under "Data", which
// names it, kept a volume at "Data" ErrBusy for good.)
func TestARetriedEarlierCreateLeavesNoIntentBehind(t *testing.T) {
	ctx := context.Background()
	c := &clock{t0}
	sh := memshare.New()
	req := CreateRequest{Path: "Data/pvc-a", Name: "pvc-a", Perm: 0o777}
	earlierBuildsCutCreate(t, sh, c, req)
	st := New(caseless{c: sh.Client(), tell: true}).WithClock(c.now, testUID)
	rec, err := st.Create(ctx, req)
	if err != nil {
		t.Fatalf("the retry after the upgrade: %v", err)
	}
	if _, _, err := st.Dispose(ctx, rec.Path, rec.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
	reclaimerPasses(t, sh, c)
	for _, p := range []string{intentPath(req.Path), st.intentPath(req.Path)} {
		if _, err := sh.Client().Stat(ctx, p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("an intent is left at %s: %v", p, err)
		}
	}
	if _, err := st.Create(ctx, CreateRequest{Path: "Data", Name: "outer", Perm: 0o777}); err != nil {
		t.Errorf("a volume at Data once pvc-a is gone (and the reclaimer passed): %v", err)
	}
}

// earlierBuildsCutCreate is req's create by a store before keys were
// folded (on a caseless server that never said so), cut at its record's
// write: its intent, holds and directory are left, keyed by req.Path as
// spelled.
func earlierBuildsCutCreate(t *testing.T, sh *memshare.Share, c *clock, req CreateRequest) {
	t.Helper()
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if strings.HasPrefix(op.Path, volumesDir+"/") && (op.Name == "write" || op.Name == "create") {
			return errDied
		}
		return nil
	})
	defer sh.SetHook(nil)
	old := New(caseless{c: sh.Client()}).WithClock(c.now, testUID)
	if _, err := old.Create(context.Background(), req); err == nil {
		t.Fatal("the cut create succeeded")
	}
}

// reclaimerPasses runs three reclaimer passes on sh, IntentTTL apart, as
// the first pass of a process after the upgrade and the next ones.
func reclaimerPasses(t *testing.T, sh *memshare.Share, c *clock) {
	t.Helper()
	if err := threePasses(c, func() *Store { return New(caseless{c: sh.Client(), tell: true}).WithClock(c.now, testUID) }); err != nil {
		t.Fatal(err)
	}
}
