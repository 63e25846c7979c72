package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A root mark names more than a file ID: the paths where its directory is.
// A copy asks ForeignRoot before it leaves a directory out as another
// volume's root; once the marked directory is gone (an archive removed by
// hand), the file system may give its ID to a directory inside a volume,
// and that directory must be copied, not dropped from every snapshot.
func TestRootMarksNameTheirPaths(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	c := sh.Client()
	rec, err := st.Create(ctx, createReq())
	if err != nil {
		t.Fatal(err)
	}
	foreign := func(id uint64) bool {
		t.Helper()
		ok, err := ForeignRoot(ctx, c, id)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !foreign(rec.RootID) {
		t.Fatal("a live volume's root is not another volume's root to a copy")
	}
	// Archived: the mark stays live at the archive's path.
	archive, _, err := st.Dispose(ctx, rec.Path, rec.UID, volume.Archive, nil)
	if err != nil || archive == "" {
		t.Fatalf("archive: %q %v", archive, err)
	}
	if !foreign(rec.RootID) {
		t.Fatal("an archive's root is not another volume's root to a copy")
	}
	// Removed by hand: the mark is left behind, and is stale.
	if err := c.RemoveAll(ctx, archive, share.RemoveOptions{}); err != nil {
		t.Fatal(err)
	}
	if foreign(rec.RootID) {
		t.Fatal("a stale mark (its archive removed by hand) still drops a directory with its ID from copies")
	}
	// The ID given again to a directory elsewhere: a mark for it at the
	// archive's old path says nothing about the new directory.
	if err := c.Mkdir(ctx, "base/other", 0o755); err != nil {
		t.Fatal(err)
	}
	fi, err := c.Stat(ctx, "base/other")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.writeMark(ctx, fi.ID, archive); err != nil {
		t.Fatal(err)
	}
	if foreign(fi.ID) {
		t.Fatal("a mark naming another path makes this directory foreign")
	}
	// A mark an earlier version wrote (empty) counts as live: the copy
	// fails rather than copy what may be another volume.
	if err := st.writeMarker(ctx, rootMarker(fi.ID)); err != nil {
		t.Fatal(err)
	}
	if !foreign(fi.ID) {
		t.Fatal("an old mark that names no path is not taken as live")
	}
	if foreign(fi.ID + 1000) {
		t.Fatal("an unmarked ID is foreign")
	}
}

// A snapshot whose copy stopped and that nobody asks for again (its
// CreateSnapshot was never answered, so the CO has no ID to delete it by)
// used to keep its record and partial copy for ever. The reclaimer deletes
// it once no call and no copy touched it for IntentTTL, and leaves alone a
// snapshot a call still asks for and every finished one.
func TestReclaimerDeletesAbandonedSnapshots(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: t0}
	sh := memshare.New()
	st := storeOn(sh, c)
	mk := func(name string) Snapshot { return copyingSnapshot(t, sh, st, name, "copied so far") }
	abandoned, asked, done := mk("abandoned"), mk("asked"), mk("done")
	if err := sh.WriteFileDirect(abandoned.PackPath(), []byte("pack")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CompleteSnapshot(ctx, done, ""); err != nil {
		t.Fatal(err)
	}
	// A stray partial copy with no record (a delete cut after its record).
	if err := sh.WriteFileDirect(snapshotsDir+"/cafe0000000000ff.partial/x", []byte("x")); err != nil {
		t.Fatal(err)
	}
	busy := map[string]bool{asked.UID: true}
	pass := snapshotPasses(t, sh, c, busy)
	if rep := pass(); rep.Snapshots != 0 {
		t.Fatalf("a first sight reclaimed snapshots: %+v", rep)
	}
	c.t = c.t.Add(IntentTTL)
	if rep := pass(); rep.Snapshots != 2 {
		t.Fatalf("reclaim report %+v, want the abandoned snapshot and the stray copy deleted", rep)
	}
	exists := func(p string) bool {
		_, err := sh.Client().Stat(ctx, p)
		return err == nil
	}
	if _, err := st.GetSnapshot(ctx, abandoned.Key(), abandoned.UID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the abandoned snapshot's record is still there: %v", err)
	}
	for _, p := range []string{abandoned.PartialTree(), abandoned.PackPath(), snapshotsDir + "/cafe0000000000ff.partial"} {
		if exists(p) {
			t.Errorf("%s is still there", p)
		}
	}
	if !exists(asked.PartialTree()) || !exists(done.Tree()) {
		t.Fatal("a snapshot a call asks for, or a finished one, was deleted")
	}
	// Once nobody asks for it either, it goes too.
	busy[asked.UID] = false
	pass()
	c.t = c.t.Add(IntentTTL)
	if rep := pass(); rep.Snapshots != 1 || exists(asked.PartialTree()) {
		t.Fatalf("reclaim report %+v: the snapshot nobody asks for any more is still there", rep)
	}
	if snaps, err := st.ListSnapshots(ctx); err != nil || len(snaps) != 1 || snaps[0].UID != done.UID {
		t.Fatalf("snapshots left: %+v %v, want only the finished one", snaps, err)
	}
}

// A root mark that could not be looked for is never taken for no mark:
// CreateVolume at a second name (a link the server follows) of another
// volume's directory must not adopt it when the server answers the mark's
// lookup with an I/O error (or JUKEBOX, or a refusal) instead of "no such
// file". The call fails, and a retry once the server answers refuses it.
func TestAMarkNotLookedForIsNeverNoMark(t *testing.T) {
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	ctx := context.Background()
	other, err := st.Create(ctx, CreateRequest{Path: "base/other", Name: "other", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect("base/other/data.txt", []byte("other's")); err != nil {
		t.Fatal(err)
	}
	sh.FollowLinks = true
	if err := sh.Symlink("other", volPath); err != nil {
		t.Fatal(err)
	}
	mark := rootMarker(other.RootID)
	sh.SetHook(func(op memshare.Op, w memshare.When) error {
		if op.Path == mark && w == memshare.Before {
			return fmt.Errorf("stat %s: input/output error", op.Path)
		}
		return nil
	})
	if rec, err := st.Create(ctx, createReq()); err == nil {
		t.Fatalf("the mark's lookup failed, and the create took the other volume's directory: %+v", rec)
	}
	sh.SetHook(nil)
	if _, err := st.Create(ctx, createReq()); !errors.Is(err, ErrConflict) {
		t.Fatalf("the retry: %v, want the conflict", err)
	}
	if _, err := st.Get(ctx, volPath, ""); err == nil {
		t.Error("a record claims the link to the other volume's directory")
	}
}

// A volume being restored keeps its intent until it is filled, for hours
// perhaps. After a controller restart the new process knows of no call or
// copy for it (VolumeBusy is false) until the CO's retry comes: its first
// passes must not take it for abandoned, however old its intent, and
// delete the copy the retry would resume. It goes only once passes of this
// process have seen it idle for IntentTTL.
func TestReclaimerAfterARestartSparesARestoreInProgress(t *testing.T) {
	sh := memshare.New()
	c := &clock{t0}
	st := storeOn(sh, c)
	ctx := context.Background()
	req := createReq()
	req.ContentSource = "snapshot-id"
	rec, err := st.Create(ctx, req)
	if err != nil || !rec.Populating {
		t.Fatalf("restore: %+v, %v", rec, err)
	}
	if err := sh.WriteFileDirect(volPath+"/restored.txt", []byte("two hours of copying")); err != nil {
		t.Fatal(err)
	}
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle} // a new process
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	c.t = c.t.Add(2 * time.Hour) // the copy ran this long before the restart
	pass := func() {
		t.Helper()
		if _, err := r.Pass(ctx, storeOn(sh, c), "share", lock); err != nil {
			t.Fatal(err)
		}
	}
	exists := func() bool {
		_, err := sh.Client().Stat(ctx, volPath+"/restored.txt")
		return err == nil
	}
	pass()
	c.t = c.t.Add(IntentTTL / 2)
	pass()
	if !exists() {
		t.Fatal("the restarted controller's first passes deleted a restore in progress")
	}
	c.t = c.t.Add(IntentTTL)
	pass()
	if exists() {
		t.Error("a restore nobody asked for during IntentTTL of this process's passes is still there")
	}
}

// A file ID outlives its directory. A volume whose directory an operator
// removed by hand keeps its record and its mark until its DeleteVolume,
// and meanwhile the file system may give the ID to the next directory it
// makes: another volume's root, or a snapshot's, whose mark has the same
// name. Whatever the first volume's record does then (deleted, retained,
// archived, made again by a retried CreateVolume) must not remove the mark
// the other root holds now; and the stale mark still goes when nobody took
// its ID, so nothing is left behind.
func TestAMarkGoesOnlyWithTheRootThatHoldsIt(t *testing.T) {
	ctx := context.Background()
	dispose := func(how volume.OnDelete) func(*testing.T, *Store, *memshare.Share, Record) {
		return func(t *testing.T, st *Store, _ *memshare.Share, a Record) {
			t.Helper()
			if _, _, err := st.Dispose(ctx, a.Path, a.UID, how, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	madeAgain := func(t *testing.T, st *Store, a Record) Record {
		t.Helper()
		again, err := st.Create(ctx, createReq())
		if err != nil {
			t.Fatal(err)
		}
		if again.UID != a.UID {
			t.Fatalf("a retried CreateVolume answered UID %s, its record says %s: no later call finds the volume by the ID it answered", again.UID, a.UID)
		}
		if again.RootID == a.RootID || again.ReplacedRootID != a.RootID {
			t.Fatalf("made again: %+v, want a new root replacing %d", again, a.RootID)
		}
		if rec, err := st.Get(ctx, a.Path, a.UID); err != nil || rec.ReplacedRootID != 0 {
			t.Fatalf("made again, its record is %+v (%v): it still names the replaced root, and every later call looks for that ID's holder again", rec, err)
		}
		return again
	}
	// cutAfterCommit makes the volume again in a CreateVolume that dies
	// once its record names the new root (and the replaced one), before
	// it deals with the old root's mark: the claim is then given up.
	var stays *[]string // the marks the subtest's end leaves by design
	cutAfterCommit := func(how volume.OnDelete) func(*testing.T, *Store, *memshare.Share, Record) {
		return func(t *testing.T, st *Store, sh *memshare.Share, a Record) {
			t.Helper()
			mark := rootMarker(a.RootID)
			sh.SetHook(func(op memshare.Op, w memshare.When) error {
				if op.Path == mark && op.Name == "read" && w == memshare.Before {
					return errDied
				}
				return nil
			})
			_, err := st.Create(ctx, createReq())
			sh.SetHook(nil)
			if !errors.Is(err, errDied) {
				t.Fatalf("the cut CreateVolume: %v", err)
			}
			rec, err := st.Get(ctx, a.Path, a.UID)
			if err != nil || rec.ReplacedRootID != a.RootID {
				t.Fatalf("after the cut the record is %+v (%v), want it to name the replaced root %d", rec, err, a.RootID)
			}
			dispose(how)(t, st, sh, rec)
			if how == volume.Archive {
				// The archive of the directory made again keeps its
				// mark, as every archive does.
				*stays = append(*stays, strconv.FormatUint(rec.RootID, 10))
			}
		}
	}
	ends := map[string]func(*testing.T, *Store, *memshare.Share, Record){
		"deleted":  dispose(volume.Delete),
		"retained": dispose(volume.Retain),
		"archived": dispose(volume.Archive),
		"made again by a retried CreateVolume, then deleted": func(t *testing.T, st *Store, sh *memshare.Share, a Record) {
			dispose(volume.Delete)(t, st, sh, madeAgain(t, st, a))
		},
		"made again by a retried CreateVolume, then retained": func(t *testing.T, st *Store, sh *memshare.Share, a Record) {
			dispose(volume.Retain)(t, st, sh, madeAgain(t, st, a))
		},
		"made again by a CreateVolume cut after its commit, then retained": cutAfterCommit(volume.Retain),
		"made again by a CreateVolume cut after its commit, then archived": cutAfterCommit(volume.Archive),
	}
	// Each holder makes its root as the next directory, which the file
	// system gives id. It answers the paths its mark names, and drop,
	// which ends it and answers the marks that stay by design.
	type holderFunc func(t *testing.T, st *Store, sh *memshare.Share, id uint64) (paths []string, drop func() (stays []string))
	holders := map[string]holderFunc{
		"a volume": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) ([]string, func() []string) {
			sh.ReuseDirID(id)
			b, err := st.Create(ctx, CreateRequest{Path: "base/b", Name: "b", Perm: 0o777})
			if err != nil {
				t.Fatal(err)
			}
			return nil, func() []string { dispose(volume.Delete)(t, st, sh, b); return nil }
		},
		"a snapshot": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) ([]string, func() []string) {
			snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "s", SourceVolumeID: "v-b", SourcePath: "base/b"})
			if err != nil {
				t.Fatal(err)
			}
			sh.ReuseDirID(id)
			if err := sh.Client().Mkdir(ctx, snap.PartialTree(), 0o755); err != nil {
				t.Fatal(err)
			}
			if snap, err = st.CompleteSnapshot(ctx, snap, ""); err != nil {
				t.Fatal(err)
			}
			return []string{snap.Tree()}, func() []string {
				if err := st.DeleteSnapshot(ctx, snap); err != nil {
					t.Fatal(err)
				}
				return nil
			}
		},
		"an archive": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) ([]string, func() []string) {
			sh.ReuseDirID(id)
			b, err := st.Create(ctx, CreateRequest{Path: "base/b", Name: "b", Perm: 0o777})
			if err != nil {
				t.Fatal(err)
			}
			archive, _, err := st.Dispose(ctx, b.Path, b.UID, volume.Archive, nil)
			if err != nil || archive == "" {
				t.Fatalf("archive b: %q %v", archive, err)
			}
			// An archive's mark outlives it (removed by hand, it is
			// stale, and copies take it so: TestRootMarksNameTheirPaths).
			return []string{b.Path, archive}, func() []string { return []string{strconv.FormatUint(id, 10)} }
		},
		"nobody": nil,
	}
	for endName, end := range ends {
		for holderName, hold := range holders {
			t.Run(endName+", its ID "+holderName+"'s", func(t *testing.T) {
				sh := memshare.New()
				st := storeOn(sh, &clock{t0})
				c := sh.Client()
				var left []string
				stays = &left
				a, err := st.Create(ctx, createReq())
				if err != nil {
					t.Fatal(err)
				}
				if err := c.RemoveAll(ctx, a.Path, share.RemoveOptions{}); err != nil {
					t.Fatal(err)
				}
				if hold == nil {
					end(t, st, sh, a)
					if got := rootsLeft(t, c); !slices.Equal(got, left) {
						t.Errorf("marks left: %v, want %v (the stale mark of the directory removed by hand is not to stay)", got, left)
					}
					return
				}
				paths, drop := hold(t, st, sh, a.RootID)
				at := "base/b"
				if len(paths) > 0 {
					at = paths[len(paths)-1]
				}
				if fi, err := c.Stat(ctx, at); err != nil || fi.ID != a.RootID {
					t.Fatalf("the test's holder at %s did not get file ID %d: %+v %v", at, a.RootID, fi, err)
				}
				end(t, st, sh, a)
				b, err := c.ReadFile(ctx, rootMarker(a.RootID))
				if err != nil {
					t.Fatalf("the mark of file ID %d, held by %s now, went with the volume whose directory had it before: %v", a.RootID, holderName, err)
				}
				var m rootMark
				if paths != nil && (json.Unmarshal(b, &m) != nil || !slices.Equal(m.Paths, paths)) {
					t.Errorf("%s's mark says %q, want its paths %q", holderName, b, paths)
				}
				if ok, err := ForeignRoot(ctx, c, a.RootID); err != nil || !ok {
					t.Errorf("%s's root is not foreign to a copy: %v %v", holderName, ok, err)
				}
				left = append(left, drop()...)
				slices.Sort(left)
				if got := rootsLeft(t, c); !slices.Equal(got, left) {
					t.Errorf("marks left once every root is gone: %v, want %v", got, left)
				}
			})
		}
	}
}

// rootsLeft lists the root marks on the share.
func rootsLeft(t *testing.T, c share.Client) []string {
	t.Helper()
	names, err := c.List(context.Background(), rootsDir, 0)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return names
}

// renameHook is a share client that runs before on each Replace (the
// rename a mark's removal is), then after once it is done, whose error is
// the call's; it is no Batcher, so every step comes through it.
type renameHook struct {
	share.Client
	before func(from string)
	after  func(from string) error
}

func (r renameHook) Replace(ctx context.Context, from, to string) error {
	r.before(from)
	if err := r.Client.Replace(ctx, from, to); err != nil {
		return err
	}
	return r.after(from)
}

// The delete of a volume whose directory was removed by hand looks for
// another root with its file ID, finds none, and removes the mark; a root
// made in that moment, given the ID, has written its mark (the same file)
// in between: a volume (its record, then its mark), or a snapshot (its
// tree in place, then its mark; its record not yet ready, the call cut
// there). The look after the remove finds it and writes its mark back,
// also when the call dies right after the remove: its retry finds the
// mark's tombstone and looks again.
func TestAMarkRemovedAsAnotherRootCommitsIsWrittenBack(t *testing.T) {
	ctx := context.Background()
	racers := map[string]func(t *testing.T, st *Store, sh *memshare.Share, id uint64) (at string, drop func()){
		"a volume": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) (string, func()) {
			sh.ReuseDirID(id)
			b, err := st.Create(ctx, CreateRequest{Path: "base/b", Name: "b", Perm: 0o777})
			if err != nil {
				t.Fatal(err)
			}
			return b.Path, func() {
				if _, _, err := st.Dispose(ctx, b.Path, b.UID, volume.Delete, nil); err != nil {
					t.Fatal(err)
				}
			}
		},
		"a snapshot": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) (string, func()) {
			snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "s", SourceVolumeID: "v-b", SourcePath: "base/b"})
			if err != nil {
				t.Fatal(err)
			}
			sh.ReuseDirID(id)
			if err := sh.WriteFileDirect(snap.PartialTree()+"/f", []byte("copied")); err != nil {
				t.Fatal(err)
			}
			// memshare runs hooks under its lock: the snapshot's
			// record is cut by failing its temporary's write here.
			if _, err := New(&failWrites{Client: sh.Client(), dir: snapshotsDir}).WithClock((&clock{t0}).now, testUID).CompleteSnapshot(ctx, snap, ""); !errors.Is(err, errDied) {
				t.Fatalf("the snapshot's completion, cut before its record: %v", err)
			}
			return snap.Tree(), func() {
				if err := st.DeleteSnapshot(ctx, snap); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
	for racerName, race := range racers {
		for _, dies := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, the call dies after the remove: %v", racerName, dies), func(t *testing.T) {
				sh := memshare.New()
				st := storeOn(sh, &clock{t0})
				a, err := st.Create(ctx, createReq())
				if err != nil {
					t.Fatal(err)
				}
				if err := sh.Client().RemoveAll(ctx, a.Path, share.RemoveOptions{}); err != nil {
					t.Fatal(err)
				}
				at, drop := "", func() {}
				mark := rootMarker(a.RootID)
				hooked := renameHook{Client: sh.Client(), before: func(from string) {
					if from == mark && at == "" {
						at, drop = race(t, st, sh, a.RootID)
					}
				}, after: func(from string) error {
					if from == mark && dies {
						return errDied
					}
					return nil
				}}
				_, _, err = New(hooked).WithClock((&clock{t0}).now, testUID).Dispose(ctx, a.Path, a.UID, volume.Delete, nil)
				if dies {
					if !errors.Is(err, errDied) {
						t.Fatalf("the cut call: %v", err)
					}
					if ok, _ := st.marked(ctx, a.RootID); ok {
						t.Fatal("the cut call did not get to remove the mark: nothing is tested")
					}
					_, _, err = st.Dispose(ctx, a.Path, a.UID, volume.Delete, nil)
				}
				if err != nil {
					t.Fatal(err)
				}
				if fi, err := sh.Client().Stat(ctx, at); at == "" || err != nil || fi.ID != a.RootID {
					t.Fatalf("the race did not happen: %s raced at %q, %+v %v", racerName, at, fi, err)
				}
				if ok, err := ForeignRoot(ctx, sh.Client(), a.RootID); err != nil || !ok {
					t.Fatalf("%s, made while the mark of its reused ID was removed, is left unmarked: %v %v", racerName, ok, err)
				}
				drop()
				if left := rootsLeft(t, sh.Client()); len(left) != 0 {
					t.Errorf("marks (or tombstones) left once every root is gone: %v", left)
				}
			})
		}
	}
}

// failWrites is a share client whose writes into dir die once a root mark
// has been written (a record's temporary after the mark, say), as a
// controller killed at that step.
type failWrites struct {
	share.Client
	dir   string
	armed bool
}

func (f *failWrites) WriteFile(ctx context.Context, p string, data []byte) error {
	if f.armed && strings.HasPrefix(p, f.dir+"/") && !strings.Contains(strings.TrimPrefix(p, f.dir+"/"), "/") {
		return errDied
	}
	f.armed = f.armed || strings.HasPrefix(p, rootsDir+"/")
	return f.Client.WriteFile(ctx, p, data)
}

// A CreateVolume that made a volume's directory again (removed by hand)
// and was cut after its record (RootID new, ReplacedRootID old) and its new
// mark, before the old mark was dealt with; then the volume is deleted
// (onDelete: delete). The batched delete of an empty volume (deleteEmpty)
// drops only the new mark: such a record takes the step-by-step way, whose
// dropRecord drops the old one too. (It used to stay for good.)
func TestADeleteAfterACutRemakeDropsTheOldMark(t *testing.T) {
	sh := memshare.New()
	c := &clock{t: t0}
	st := storeOn(sh, c)
	warmShare(t, st, sh)
	ctx := context.Background()
	a, err := st.Create(ctx, createReq())
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Client().(share.Rmdirer).RemoveDir(ctx, volPath); err != nil {
		t.Fatal(err)
	}
	// The retry of the create: cut at the first look of dropMark of the
	// old ID (after the record and the new mark are written).
	oldMark := rootMarker(a.RootID)
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.Before && op.Path == oldMark {
			return errDied
		}
		return nil
	})
	_, err = storeOn(sh, c).Create(ctx, createReq())
	sh.SetHook(nil)
	if err == nil {
		t.Fatal("the create was not cut")
	}
	rec, err := st.record(ctx, volPath)
	if err != nil || rec.ReplacedRootID != a.RootID || rec.RootID == a.RootID {
		t.Fatalf("setup: record %+v, %v", rec, err)
	}
	// The CO deletes the volume (it holds its ID from the first answer).
	if _, _, err := storeOn(sh, c).Dispose(ctx, volPath, a.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
	if m := rootsLeft(t, sh.Client()); len(m) != 0 {
		t.Errorf("marks left after the volume was deleted: %v (the replaced root's mark is orphaned)", m)
	}
}

// A create answered at once (an empty volume) ends with its intent renamed
// onto its root's mark: one step where a mark's write and the intent's
// removal were two (issue #28's budget: on NFSv3 every step is an RPC). The
// mark carries the intent's content, which names no path: a copy takes it
// for a live volume's mark, as an empty one.
func TestACreateRenamesItsIntentOntoItsRootsMark(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	warmShare(t, st, sh)
	var steps []string
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.Before {
			steps = append(steps, op.Name+" "+op.Path)
		}
		return nil
	})
	rec, err := st.Create(ctx, createReq())
	sh.SetHook(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A new file is two steps, as over NFSv3: CREATE, then WRITE.
	want := []string{
		"create " + st.intentPath(volPath),
		"write " + st.intentPath(volPath),
		"write " + st.holdDir("base") + "/" + st.key(volPath),
		"stat base/" + Dir,
		"read " + st.recordPath("base"),
		"mkdir " + volPath,
		"create " + st.recordPath(volPath),
		"write " + st.recordPath(volPath),
		"replace " + st.intentPath(volPath) + " -> " + rootMarker(rec.RootID),
	}
	if !slices.Equal(steps, want) {
		t.Errorf("a warm create's steps:\n  %s\nwant\n  %s", strings.Join(steps, "\n  "), strings.Join(want, "\n  "))
	}
	b, err := sh.Client().ReadFile(ctx, rootMarker(rec.RootID))
	var in Record
	if err != nil || json.Unmarshal(b, &in) != nil || in.UID != rec.UID {
		t.Errorf("the root's mark is not the create's intent: %q %v", b, err)
	}
	if names, err := sh.Client().List(ctx, intentsDir, 0); err != nil || len(names) > 0 {
		t.Errorf("intents left: %v %v", names, err)
	}
	if live, err := ForeignRoot(ctx, sh.Client(), rec.RootID); err != nil || !live {
		t.Errorf("the volume's root is not another volume's root to a copy (%v)", err)
	}
}

// A repeated CreateVolume finds its volume's mark as its first call left
// it, and keeps it; a mark that names paths is another root's, stale (an
// archive removed by hand, its file ID given to this volume's directory),
// and is replaced by the volume's own. A later call's intent is not this
// volume's, and is removed, never renamed onto its mark.
func TestARepeatedCreateKeepsItsMarkAndReplacesAStaleOne(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	c := sh.Client()
	rec, err := st.Create(ctx, createReq())
	if err != nil {
		t.Fatal(err)
	}
	mark := rootMarker(rec.RootID)
	first, err := c.ReadFile(ctx, mark)
	if err != nil {
		t.Fatal(err)
	}
	other := []byte(`{"uid":"a later call's"}`)
	if err := c.WriteFile(ctx, st.intentPath(volPath), other); err != nil {
		t.Fatal(err)
	}
	if _, err := st.create(ctx, createReq()); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadFile(ctx, mark); err != nil || string(b) != string(first) {
		t.Errorf("the mark after a repeated create: %q %v, want %q", b, err, first)
	}
	if _, err := c.Stat(ctx, st.intentPath(volPath)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a later call's intent is still there: %v", err)
	}
	if err := c.WriteFile(ctx, mark, []byte(`{"paths":["archived-gone"]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, createReq()); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadFile(ctx, mark); err != nil || len(b) != 0 {
		t.Errorf("a stale mark naming another root's path was kept: %q %v", b, err)
	}
}

// A copy taken over while it paused after its last look at the fence
// commits the snapshot, and the new owner's workers, until their next beat
// stops them, make its partial copy again beside the finished one. That
// partial copy used to stay until the snapshot was deleted: the reclaimer
// took every snapshot with a ready record for none of its business. It
// goes once it stayed for IntentTTL, and the finished snapshot keeps its
// copy and its record; one a call still asks for stays.
func TestReclaimerDropsAPartialCopyLeftBesideAFinishedSnapshot(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: t0}
	sh := memshare.New()
	st := storeOn(sh, c)
	finish := func(name string) Snapshot {
		snap, err := st.CompleteSnapshot(ctx, copyingSnapshot(t, sh, st, name, "the whole copy"), "")
		if err != nil {
			t.Fatal(err)
		}
		// The late run's workers.
		if err := sh.WriteFileDirect(snap.PartialTree()+"/d/f", []byte("the late run's")); err != nil {
			t.Fatal(err)
		}
		return snap
	}
	late, asked := finish("late"), finish("asked")
	busy := map[string]bool{asked.UID: true}
	pass := snapshotPasses(t, sh, c, busy)
	exists := func(p string) bool {
		_, err := sh.Client().Stat(ctx, p)
		return err == nil
	}
	if rep := pass(); rep.Temps != 0 || !exists(late.PartialTree()) {
		t.Fatalf("a first sight removed a partial copy: %+v", rep)
	}
	c.t = c.t.Add(IntentTTL)
	if rep := pass(); rep.Temps != 1 || rep.Snapshots != 0 {
		t.Fatalf("reclaim report %+v, want the one partial copy nobody asks for removed and no snapshot deleted", rep)
	}
	if exists(late.PartialTree()) {
		t.Error("the partial copy beside the finished snapshot is still there")
	}
	if !exists(asked.PartialTree()) {
		t.Error("the partial copy of a snapshot a call asks for was removed")
	}
	for _, snap := range []Snapshot{late, asked} {
		got, err := st.GetSnapshot(ctx, snap.Key(), snap.UID)
		if err != nil || !got.Ready {
			t.Errorf("snapshot %s: %+v %v, want it ready", snap.Name, got, err)
		}
		if b, err := sh.Client().ReadFile(ctx, snap.Tree()+"/d/f"); err != nil || string(b) != "the whole copy" {
			t.Errorf("snapshot %s's copy: %q %v", snap.Name, b, err)
		}
	}
	if names, _ := sh.Client().List(ctx, deletingDir, 0); len(names) != 0 {
		t.Errorf("the quarantine holds %v", names)
	}
}

// copyingSnapshot is a snapshot of base/<name> whose copy has written
// d/f, holding content, into its partial copy.
func copyingSnapshot(t *testing.T, sh *memshare.Share, st *Store, name, content string) Snapshot {
	t.Helper()
	snap, err := st.CreateSnapshot(context.Background(), SnapshotRequest{Name: name, SourceVolumeID: "v-" + name, SourcePath: "base/" + name})
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect(snap.PartialTree()+"/d/f", []byte(content)); err != nil {
		t.Fatal(err)
	}
	return snap
}

// snapshotPasses returns a reclaimer's pass over sh at clock c, to which
// the snapshots busy names (as it says at each pass) are busy.
func snapshotPasses(t *testing.T, sh *memshare.Share, c *clock, busy map[string]bool) func() ReclaimReport {
	r := Reclaimer{SnapshotBusy: func(uid string) bool { return busy[uid] }}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	return func() ReclaimReport {
		t.Helper()
		rep, err := r.Pass(context.Background(), storeOn(sh, c), "s", lock)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
}
