package copytree

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// caseless is a destination whose server takes names that differ only in
// case for one name, as SMB servers do (share.Caseless).
type caseless struct{ share.TreeClient }

func (caseless) CaseInsensitive() bool { return true }

// A source (NFS, or a Samba share whose files were made over NFS or on
// the server) may hold names that differ only in case; a caseless
// destination holds one of them. The copy used to end with the second in
// the first's place and pass for whole: it fails now, naming the entry.
func TestNamesThatDifferOnlyInCaseFailACopyIntoACaselessDestination(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		files []string
		clash bool
	}{
		{"two files", []string{"vol/d/Report.txt", "vol/d/report.TXT"}, true},
		{"two directories", []string{"vol/Data/a", "vol/data/b"}, true},
		{"a file and a directory", []string{"vol/x", "vol/X/y"}, true},
		{"non-ASCII", []string{"vol/ÄRGER", "vol/ärger"}, true},
		{"the same name in two directories", []string{"vol/a/f", "vol/b/f", "vol/a/g", "vol/b/G"}, false},
	} {
		for _, pack := range []string{"", "packs/run1"} {
			t.Run(tc.name+" "+pack, func(t *testing.T) {
				sh := memshare.New()
				for _, f := range tc.files {
					if err := sh.WriteFileDirect(f, []byte(f)); err != nil {
						t.Fatal(err)
					}
				}
				c := sh.Client().(share.TreeClient)
				s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: caseless{c}}}}
				_, err := Copy(ctx, s, "vol", "snap", Options{PackTo: pack})
				if pack != "" && err == nil {
					// The pack keeps each name as it is: the copy is
					// whole, and its restore meets the clash.
					_, err = Copy(ctx, s, "snap", "restore", Options{UnpackFrom: pack})
				}
				if !tc.clash {
					if err != nil {
						t.Fatalf("names that differ in case only in different directories: %v", err)
					}
					return
				}
				if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "differs from it only in case") {
					t.Fatalf("a copy of %v into a caseless destination: %v, want ErrIncomplete naming the clash", tc.files, err)
				}
				// Into a destination that keeps case, the copy is whole.
				s.Workers[0].Dst = c
				if _, err := Copy(ctx, s, "vol", "snap2", Options{PackTo: pack + "x"}); err != nil {
					t.Fatalf("the same copy into a destination that keeps case: %v", err)
				}
			})
		}
	}
}

// foldingDst is a caseless destination that behaves as one: each path it
// is given is folded, so two names that differ only in case meet one
// entry, as on an SMB server.
type foldingDst struct{ share.TreeClient }

func (foldingDst) CaseInsensitive() bool { return true }

func (f foldingDst) Lstat(ctx context.Context, rel string) (share.Attr, error) {
	return f.TreeClient.Lstat(ctx, share.FoldCase(rel))
}

func (f foldingDst) Stat(ctx context.Context, rel string) (share.FileInfo, error) {
	return f.TreeClient.Stat(ctx, share.FoldCase(rel))
}

func (f foldingDst) Mkdir(ctx context.Context, rel string, perm fs.FileMode) error {
	return f.TreeClient.Mkdir(ctx, share.FoldCase(rel), perm)
}

func (f foldingDst) Create(ctx context.Context, rel string, perm fs.FileMode) (share.FileWriter, error) {
	return f.TreeClient.Create(ctx, share.FoldCase(rel), perm)
}

func (f foldingDst) Remove(ctx context.Context, rel string) error {
	return f.TreeClient.Remove(ctx, share.FoldCase(rel))
}

func (f foldingDst) RemoveAll(ctx context.Context, rel string, opts share.RemoveOptions) error {
	return f.TreeClient.RemoveAll(ctx, share.FoldCase(rel), opts)
}

func (f foldingDst) SetAttr(ctx context.Context, rel string, a share.Attr, mask share.AttrMask) error {
	return f.TreeClient.SetAttr(ctx, share.FoldCase(rel), a, mask)
}

func (f foldingDst) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	return f.TreeClient.ReadDir(ctx, share.FoldCase(rel), fn)
}

func (f foldingDst) Symlink(ctx context.Context, target, rel string) error {
	return f.TreeClient.Symlink(ctx, target, share.FoldCase(rel))
}

func (f foldingDst) Readlink(ctx context.Context, rel string) (string, error) {
	return f.TreeClient.Readlink(ctx, share.FoldCase(rel))
}

// A snapshot made on a share that keeps case holds both of two names, in
// its pack (small files) or its tree. A packed file and a file in the tree
// meet on different paths of a restore into a caseless destination. A pack
// holds the directories of its files in their paths: a packed file and a
// packed file's directory whose names differ only in case clash in the
// unpack itself, before the walk meets the directory in the tree. The
// restore used to fail with what the unpack then met (a file where the
// directory goes: AlreadyExists, or NotFound), not the clash; and a
// directory the unpack made is met again by the walk without a clash.
func TestARestoreIntoACaselessDestinationChecksThePacksDirectories(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		files []string
		clash bool
	}{
		// Listed first, the small files are packed before the
		// directory's: D lies before d/x in the pack.
		{"a file before a directory", []string{"vol/A1", "vol/A2", "vol/A3", "vol/D", "vol/d/x"}, true},
		{"a file before a deeper directory", []string{"vol/A1", "vol/A2", "vol/A3", "vol/D", "vol/d/x/y"}, true},
		{"a directory before a file", []string{"vol/D/x", "vol/d"}, true},
		// a/BIG is packed, a/big (large) is in the tree: the restore
		// meets the two on different paths of the copy.
		{"a packed file and a file in the tree", []string{"vol/a/BIG"}, true},
		{"one directory, packed and in the tree", []string{"vol/a/x", "vol/a/b/y", "vol/a/b/z", "vol/c/w", "vol/a/v"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh := memshare.New()
			for _, f := range tc.files {
				if err := sh.WriteFileDirect(f, []byte(f)); err != nil {
					t.Fatal(err)
				}
			}
			if err := sh.WriteFileDirect("vol/a/big", []byte(strings.Repeat("large", packLimit))); err != nil {
				t.Fatal(err)
			}
			c := sh.Client().(share.TreeClient)
			s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
			if _, err := Copy(ctx, s, "vol", "snap", Options{PackTo: "packs/run1"}); err != nil {
				t.Fatal(err)
			}
			s.Workers[0].Dst = foldingDst{c}
			_, err := Copy(ctx, s, "snap", "restore", Options{UnpackFrom: "packs/run1"})
			if !tc.clash {
				if err != nil {
					t.Fatalf("a restore of %v into a caseless destination: %v", tc.files, err)
				}
				return
			}
			if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "differs from it only in case") {
				t.Fatalf("a restore of %v into a caseless destination: %v, want ErrIncomplete naming the clash", tc.files, err)
			}
		})
	}
}

// repeating is a source whose listing shows "f" twice, as a directory
// that changes while it is listed may.
type repeating struct{ share.TreeClient }

func (r repeating) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	return r.TreeClient.ReadDir(ctx, rel, func(page []share.DirEntry) error {
		for _, e := range page {
			if e.Name == "f" {
				page = append(page, e)
				break
			}
		}
		return fn(page)
	})
}

// A name listed twice is one entry, not two that differ only in case.
func TestANameListedTwiceIsNoCaseClash(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	for _, f := range []string{"vol/f", "vol/g"} {
		if err := sh.WriteFileDirect(f, []byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	c := sh.Client().(share.TreeClient)
	src := repeating{c}
	s := Sessions{Lister: src, Workers: []Pair{{Src: c, Dst: caseless{c}}}}
	if _, err := Copy(ctx, s, "vol", "snap", Options{}); err != nil {
		t.Fatalf("a copy whose listing showed f twice: %v", err)
	}
	if got, err := c.ReadFile(ctx, "snap/f"); err != nil || string(got) != "vol/f" {
		t.Fatalf("snap/f = %q, %v", got, err)
	}
}

// A file listed small is bound for a snapshot's pack and keeps its name
// there, so the listing does not claim it; replaced by a large one before
// it is copied, it goes into the tree, where its case twin is.
func TestAPackedFileThatGrewIntoTheTreeIsClaimed(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	sh.FollowLinks = true
	large := strings.Repeat("L", packLimit+1)
	if err := sh.WriteFileDirect("vol/d/A", []byte(large)); err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect("vol/d/a", []byte("small")); err != nil {
		t.Fatal(err)
	}
	admin := sh.Client().(share.TreeClient)
	worker, saved := savedAgainOnOpen(sh, "vol/d/a", large)
	_, err := Copy(ctx, Sessions{Lister: admin, Workers: []Pair{{Src: worker, Dst: caseless{admin}}}}, "vol", "snap", Options{PackTo: "packs/run1"})
	saved(t)
	if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "differs from it only in case") {
		t.Fatalf("a snapshot whose packed d/a grew into the tree beside d/A, into a caseless destination: %v, want ErrIncomplete naming the clash", err)
	}
}
