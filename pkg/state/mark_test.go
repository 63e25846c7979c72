package state

import (
	"context"
	"testing"

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
