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

// TestAV1ArchiveKeepsItsRecordWhenItsPathIsMadeAgain: a v1 volume's
// DeleteVolume (archive) renamed it to its archive and was cut before its
// v1 record went; a directory is made by hand at the volume's old path
// before the retry. A v1 volume has no UID and no root ID, so the archive's
// record (UID "") matches the retry's, and archivedAs cannot tell the
// archive from a hand-made directory. The real archive must keep its
// record and holds.
func TestAV1ArchiveKeepsItsRecordWhenItsPathIsMadeAgain(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	c := &clock{t0}
	st := storeOn(sh, c)
	must(t, sh.WriteFileDirect("base/ns/pvc-1/a.txt", []byte("the deleted volume's data")))
	must(t, st.writeJSON(ctx, LegacyRecordPath("base", "ns/pvc-1"), Record{Name: "pvc-1", CapacityBytes: 1}))
	renamed := false
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if op.Name == "rename" && strings.Contains(op.Path, "pvc-1") && when == memshare.After {
			renamed = true
			return nil
		}
		if renamed && !reads[op.Name] {
			return errDied
		}
		return nil
	})
	if _, _, err := st.DisposeLegacy(ctx, "base", "ns/pvc-1", volume.Archive); err == nil {
		t.Fatal("not cut after the rename")
	}
	sh.SetHook(nil)
	archive := "base/ns/" + ArchivePrefix + "pvc-1"
	if _, err := sh.Client().Stat(ctx, archive+"/a.txt"); err != nil {
		t.Fatalf("not archived: %v", err)
	}
	// Made by hand at the old path.
	must(t, sh.Client().Mkdir(ctx, "base/ns/pvc-1", 0o750))
	// Without IDs the retry cannot tell the hand-made directory from the
	// volume either, and archives it under the next name (as before
	// unclaim): what it must not do is take the real archive's record.
	if _, _, err := storeOn(sh, c).DisposeLegacy(ctx, "base", "ns/pvc-1", volume.Archive); err != nil {
		t.Fatal(err)
	}
	if _, err := sh.Client().Stat(ctx, st.archivePath(archive)); err != nil {
		t.Errorf("the archive record of %s, the deleted volume's data, is gone: %v", archive, err)
	}
	if len(holdsOf(sh, st, archive)) == 0 {
		t.Errorf("no hold names %s: a claim at base/ns may adopt a directory holding a deleted volume's data", archive)
	}
}

// volumeToArchive is pvc-a with data, and the name its archive takes
// first.
func volumeToArchive(t *testing.T) (sh *memshare.Share, c *clock, rec Record, archive string) {
	t.Helper()
	c = &clock{t: t0}
	sh = memshare.New()
	baseDir(t, storeOn(sh, c), sh)
	return sh, c, madeVolume(t, storeOn(sh, c), sh), "base/" + ArchivePrefix + "pvc-a"
}

// atRename is a session that does what first says just before the first
// rename onto to, once: what another try or an administrator does between
// an archive's look at its name and its rename.
type atRename struct {
	share.Client
	to    string
	first func(ctx context.Context, from string) error
	done  bool
}

func (c *atRename) Rename(ctx context.Context, from, to string) error {
	if to == c.to && !c.done {
		c.done = true
		if err := c.first(ctx, from); err != nil {
			return err
		}
	}
	return c.Client.Rename(ctx, from, to)
}

// TestAnArchiveRenamedLateKeepsItsRecord: the rename site's unclaim must
// not take the record of the volume's own archive.
func TestAnArchiveRenamedLateKeepsItsRecord(t *testing.T) {
	ctx := context.Background()
	sh, c, rec, archive := volumeToArchive(t)
	// An earlier try's rename of the same step lands just before this
	// call's (the volume moves to the archive), and a directory is made
	// by hand at the volume's old path.
	late := func(ctx context.Context, from string) error {
		if err := sh.Client().Rename(ctx, from, archive); err != nil {
			return err
		}
		return sh.Client().Mkdir(ctx, from, 0o750)
	}
	st := New(&atRename{Client: sh.Client(), to: archive, first: late}).WithClock(c.now, testUID)
	got, _, err := st.Dispose(ctx, volPath, rec.UID, volume.Archive, nil)
	if err != nil || got != archive {
		t.Errorf("the DeleteVolume answered %q, %v; want the archive where the volume is, %s", got, err, archive)
	}
	if _, err := sh.Client().Stat(ctx, volPath); err != nil {
		t.Errorf("the directory made by hand at %s is gone: %v", volPath, err)
	}
	if _, err := sh.Client().Stat(ctx, archive+"/d/e/c.txt"); err != nil {
		t.Fatalf("the volume is not at %s: %v", archive, err)
	}
	if _, err := sh.Client().Stat(ctx, st.archivePath(archive)); err != nil {
		t.Errorf("the archive record of %s, the deleted volume's data, is gone: %v", archive, err)
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
	if h := holdsOf(sh, st, taken); len(h) > 0 {
		t.Errorf("holds name %s, made by hand: %v", taken, h)
	}
	archives := 0
	for _, e := range sh.Dump() {
		switch {
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

// TestAnArchiveNameTakenAtItsRenameIsLeftAsFound: the same, with the name
// taken within the call, between its look and its rename.
func TestAnArchiveNameTakenAtItsRenameIsLeftAsFound(t *testing.T) {
	ctx := context.Background()
	sh, c, rec, taken := volumeToArchive(t)
	byHand := func(context.Context, string) error {
		return sh.WriteFileDirect(taken+"/mine.txt", []byte("an administrator's"))
	}
	st := New(&atRename{Client: sh.Client(), to: taken, first: byHand}).WithClock(c.now, testUID)
	if _, _, err := st.Dispose(ctx, volPath, rec.UID, volume.Archive, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.c.ReadFile(ctx, st.archivePath(taken)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the archive record of %s, made by hand, is left: %v", taken, err)
	}
	if h := holdsOf(sh, st, taken); len(h) > 0 {
		t.Errorf("holds name %s, made by hand: %v", taken, h)
	}
	if b, err := st.c.ReadFile(ctx, taken+"/mine.txt"); err != nil || string(b) != "an administrator's" {
		t.Errorf("the hand-made directory lost its file: %q, %v", b, err)
	}
}

// holdsOf lists the holds that name p.
func holdsOf(sh *memshare.Share, st *Store, p string) []string {
	var out []string
	for _, e := range sh.Dump() {
		if strings.HasPrefix(e.Path, holdsDir+"/") && strings.HasSuffix(e.Path, "/"+st.key(p)) {
			out = append(out, e.Path)
		}
	}
	return out
}
