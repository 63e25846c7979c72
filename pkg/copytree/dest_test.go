package copytree

import (
	"context"
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A copy writes only into its own destination. A copy that resumes finds
// what an earlier run left there, and on a server that resolves links for
// its clients (Samba's default) a link planted among it shows as the
// directory or file it leads to: the copy must neither write through it
// nor empty what it leads to. (Planting one takes someone who can make
// links on the server's file system: over NFS on a share exported by both
// protocols, or locally.)

// marksDir is where these tests mark other volumes' roots, as
// state.RootsDir does: one file per root's file ID.
const marksDir = "marks"

// markedForeign is Options.Foreign over marksDir.
func markedForeign(ctx context.Context, c share.Client, id uint64) (bool, error) {
	_, err := c.Stat(ctx, marksDir+"/"+strconv.FormatUint(id, 10))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// plantedShare is a share that follows links, with a volume "vol" to copy,
// another volume "other" (marked) whose files must stay as they are, and a
// destination "restore" an earlier run began to fill.
func plantedShare(t *testing.T) (*memshare.Share, share.TreeClient) {
	t.Helper()
	sh := memshare.New()
	sh.FollowLinks = true
	for p, d := range map[string]string{
		"vol/f": "the volume's f", "vol/sub/g": "the volume's g", "vol/x": "the volume's x",
		"other/f": "SECRET f", "other/g": "SECRET g", "other/x/y": "SECRET y",
		"restore/earlier": "what an earlier run copied",
	} {
		if err := sh.WriteFileDirect(p, []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	c := sh.Client().(share.TreeClient)
	o, err := c.Lstat(context.Background(), "other")
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect(marksDir+"/"+strconv.FormatUint(o.ID, 10), nil); err != nil {
		t.Fatal(err)
	}
	return sh, c
}

// otherIntact fails t when anything of "other" changed.
func otherIntact(t *testing.T, sh *memshare.Share) {
	t.Helper()
	want := map[string]string{"other/f": "SECRET f", "other/g": "SECRET g", "other/x/y": "SECRET y"}
	got := map[string]string{}
	for _, e := range sh.Dump() {
		if strings.HasPrefix(e.Path, "other/") && !e.Dir {
			got[e.Path] = e.Data
		}
	}
	for p, d := range want {
		if got[p] != d {
			t.Errorf("%s = %q, want %q: the copy wrote into, or removed, another volume's file", p, got[p], d)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s was made in another volume by the copy", p)
		}
	}
}

func TestAResumedCopyNeverWritesThroughALinkInItsDestination(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, link, target string
		// wantErr: the copy stops and leaves the link alone; else it
		// replaces the link by its own entry and finishes.
		wantErr bool
	}{
		// The walk would go into restore/sub and write g there.
		{"a directory, to another volume's root", "restore/sub", "../other", true},
		// f is a file in the source: the stale directory in its place
		// would be emptied.
		{"where a file goes, to another volume's root", "restore/x", "../other", true},
		// Removed by its name, never followed, then made afresh.
		{"a file, to another volume's file", "restore/f", "../other/f", false},
		{"a file below, to another volume's file", "restore/sub/g", "../../other/g", false},
		{"a directory, to the driver's metadata", "restore/sub", "../marks", true},
		{"a directory, to the share's root", "restore/sub", "..", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh, c := plantedShare(t)
			if strings.Count(tc.link, "/") > 1 {
				if err := sh.WriteFileDirect("restore/sub/earlier", []byte("an earlier run's")); err != nil {
					t.Fatal(err)
				}
			}
			if err := sh.Symlink(tc.target, tc.link); err != nil {
				t.Fatal(err)
			}
			s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
			_, err := Copy(ctx, s, "vol", "restore", Options{
				Foreign: markedForeign, Marks: marksDir, Protect: []string{marksDir}, TopExists: true,
			})
			otherIntact(t, sh)
			if tc.wantErr {
				if !errors.Is(err, ErrIncomplete) {
					t.Fatalf("a resumed copy with %s planted as a link to %s: %v, want ErrIncomplete", tc.link, tc.target, err)
				}
				for _, e := range sh.Dump() {
					if e.Path == tc.link && e.Link == "" {
						t.Errorf("%s was replaced: the link should be left for an administrator", tc.link)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("a resumed copy with %s planted as a link to a file: %v", tc.link, err)
			}
			for _, e := range sh.Dump() {
				if e.Path == tc.link && (e.Link != "" || !strings.HasPrefix(e.Data, "the volume's")) {
					t.Errorf("%s = %+v, want the volume's own file in place of the link", e.Path, e)
				}
			}
		})
	}
}

// A restore's pack makes its files, and the directories they are in,
// before the walk: a resumed restore checks what it finds there as the
// walk does. A packed file's directory lies below others; a link planted
// at any level of its path shows as a directory, and a directory made
// below it is made in what it leads to: each level an earlier run left is
// checked, not only the packed file's own directory.
func TestAResumedRestoreNeverUnpacksThroughALinkInItsDestination(t *testing.T) {
	ctx := context.Background()
	for _, link := range []string{"restore/sub", "restore/sub2"} {
		t.Run(link, func(t *testing.T) {
			sh, c := plantedShare(t)
			if err := sh.WriteFileDirect("vol/sub2/deep/h", []byte("the volume's h")); err != nil {
				t.Fatal(err)
			}
			s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
			if _, err := Copy(ctx, s, "vol", "snap", Options{PackTo: "packs/run1"}); err != nil {
				t.Fatal(err)
			}
			if err := sh.Symlink("../other", link); err != nil {
				t.Fatal(err)
			}
			_, err := Copy(ctx, s, "snap", "restore", Options{
				Foreign: markedForeign, Marks: marksDir, Protect: []string{marksDir}, TopExists: true, UnpackFrom: "packs/run1",
			})
			otherIntact(t, sh)
			for _, e := range sh.Dump() {
				if strings.HasPrefix(e.Path, "other/") && e.Dir && e.Path != "other/x" {
					t.Errorf("%s was made in another volume by the restore", e.Path)
				}
			}
			if !errors.Is(err, ErrIncomplete) {
				t.Fatalf("a resumed restore with %s planted as a link to another volume: %v, want ErrIncomplete", link, err)
			}
		})
	}
}

// The destination's top is the volume's recorded directory: a link in its
// place is not written through.
func TestACopyNeverWritesIntoATopThatIsNoLongerItsVolume(t *testing.T) {
	ctx := context.Background()
	sh, c := plantedShare(t)
	r, err := c.Lstat(ctx, "restore")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Rename(ctx, "restore", "restore.moved"); err != nil {
		t.Fatal(err)
	}
	if err := sh.Symlink("other", "restore"); err != nil {
		t.Fatal(err)
	}
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
	_, err = Copy(ctx, s, "vol", "restore", Options{
		Foreign: markedForeign, Marks: marksDir, TopExists: true, DstTopID: r.ID,
	})
	otherIntact(t, sh)
	if !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("a copy into a top swapped for a link: %v, want fs.ErrInvalid", err)
	}
}
