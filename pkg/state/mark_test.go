package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
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
	mk := func(name string) Snapshot {
		snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: name, SourceVolumeID: "v-" + name, SourcePath: "base/" + name})
		if err != nil {
			t.Fatal(err)
		}
		if err := sh.WriteFileDirect(snap.PartialTree()+"/d/f", []byte("copied so far")); err != nil {
			t.Fatal(err)
		}
		return snap
	}
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
	r := Reclaimer{SnapshotBusy: func(uid string) bool { return busy[uid] }}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	pass := func() ReclaimReport {
		t.Helper()
		rep, err := r.Pass(ctx, storeOn(sh, c), "s", lock)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
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
	dispose := func(how volume.OnDelete) func(*testing.T, *Store, Record) {
		return func(t *testing.T, st *Store, a Record) {
			t.Helper()
			if _, _, err := st.Dispose(ctx, a.Path, a.UID, how, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	ends := map[string]func(*testing.T, *Store, Record){
		"deleted":  dispose(volume.Delete),
		"retained": dispose(volume.Retain),
		"archived": dispose(volume.Archive),
		"made again by a retried CreateVolume, then deleted": func(t *testing.T, st *Store, a Record) {
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
			dispose(volume.Delete)(t, st, again)
		},
	}
	// Each holder makes its root as the next directory, which the file
	// system gives id.
	holders := map[string]func(t *testing.T, st *Store, sh *memshare.Share, id uint64) (paths []string, drop func()){
		"a volume": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) ([]string, func()) {
			sh.ReuseDirID(id)
			b, err := st.Create(ctx, CreateRequest{Path: "base/b", Name: "b", Perm: 0o777})
			if err != nil {
				t.Fatal(err)
			}
			return nil, func() { dispose(volume.Delete)(t, st, b) }
		},
		"a snapshot": func(t *testing.T, st *Store, sh *memshare.Share, id uint64) ([]string, func()) {
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
			return []string{snap.Tree()}, func() {
				if err := st.DeleteSnapshot(ctx, snap); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
	holders["nobody"] = nil
	for endName, end := range ends {
		for holderName, hold := range holders {
			t.Run(endName+", its ID "+holderName+"'s", func(t *testing.T) {
				sh := memshare.New()
				st := storeOn(sh, &clock{t0})
				c := sh.Client()
				a, err := st.Create(ctx, createReq())
				if err != nil {
					t.Fatal(err)
				}
				if err := c.RemoveAll(ctx, a.Path, share.RemoveOptions{}); err != nil {
					t.Fatal(err)
				}
				if hold == nil {
					end(t, st, a)
					if left := rootsLeft(t, c); len(left) != 0 {
						t.Errorf("the stale mark of a directory removed by hand is left: %v", left)
					}
					return
				}
				paths, drop := hold(t, st, sh, a.RootID)
				end(t, st, a)
				b, err := c.ReadFile(ctx, rootMarker(a.RootID))
				if err != nil {
					t.Fatalf("the mark of file ID %d, held by %s now, went with the volume whose directory had it before: %v", a.RootID, holderName, err)
				}
				if fi, err := c.Stat(ctx, heldAt(paths)); err != nil || fi.ID != a.RootID {
					t.Fatalf("the test's holder did not get file ID %d: %+v %v", a.RootID, fi, err)
				}
				var m rootMark
				if paths != nil && (json.Unmarshal(b, &m) != nil || !slices.Equal(m.Paths, paths)) {
					t.Errorf("%s's mark says %q, want its paths %q", holderName, b, paths)
				}
				if ok, err := ForeignRoot(ctx, c, a.RootID); err != nil || !ok {
					t.Errorf("%s's root is not foreign to a copy: %v %v", holderName, ok, err)
				}
				drop()
				if left := rootsLeft(t, c); len(left) != 0 {
					t.Errorf("marks left once every root is gone: %v", left)
				}
			})
		}
	}
}

// heldAt is where the test's holder of a reused ID is: the snapshot's
// tree it names, or volume b.
func heldAt(paths []string) string {
	if len(paths) > 0 {
		return paths[0]
	}
	return "base/b"
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

// removeHook is a share client that runs before on each Remove, then
// removes; it is no Batcher, so every step of a batch comes through it.
type removeHook struct {
	share.Client
	before func(p string)
}

func (r removeHook) Remove(ctx context.Context, p string) error {
	r.before(p)
	return r.Client.Remove(ctx, p)
}

// The delete of a volume whose directory was removed by hand looks for
// another root with its file ID, finds none, and removes the mark; a
// volume made in that moment, given the ID, has written its record and
// its mark (the same file) in between. The look after the remove finds it
// and writes its mark back.
func TestAMarkRemovedAsAnotherRootCommitsIsWrittenBack(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	a, err := st.Create(ctx, createReq())
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Client().RemoveAll(ctx, a.Path, share.RemoveOptions{}); err != nil {
		t.Fatal(err)
	}
	var b Record
	raced := false
	hooked := removeHook{Client: sh.Client(), before: func(p string) {
		if p != rootMarker(a.RootID) || raced {
			return
		}
		raced = true
		sh.ReuseDirID(a.RootID)
		if b, err = storeOn(sh, &clock{t0}).Create(ctx, CreateRequest{Path: "base/b", Name: "b", Perm: 0o777}); err != nil {
			t.Fatal(err)
		}
	}}
	if _, _, err := New(hooked).WithClock((&clock{t0}).now, testUID).Dispose(ctx, a.Path, a.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
	if !raced || b.RootID != a.RootID {
		t.Fatalf("the race did not happen: the mark was never removed, or b got ID %d, not %d", b.RootID, a.RootID)
	}
	if ok, err := st.marked(ctx, b.RootID); err != nil || !ok {
		t.Fatalf("volume b, made while the mark of its reused ID was removed, is left unmarked: %v %v", ok, err)
	}
	if _, _, err := st.Dispose(ctx, b.Path, b.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
	if left := rootsLeft(t, sh.Client()); len(left) != 0 {
		t.Errorf("marks left once every root is gone: %v", left)
	}
}
