package copytree

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// On a server that resolves links for its clients (Samba's default follow
// symlinks = yes), a directory a copy listed, and whose ID it checked as
// it listed it (TestADirectorySwappedForALinkAfterItsListingIsNotCopied), can be swapped for a link to another volume before the
// copy's workers open its files by their paths: each path then leads to
// the other volume's file of the same name. The copy must fail, and not a
// byte of the other volume may reach the destination: streamed, packed
// one at a time, or packed in groups (share.FilesReader).
func TestADirectorySwappedForALinkBeforeItsFilesAreOpenedIsNotCopied(t *testing.T) {
	const secret = "SECRET of the other volume"
	for _, tc := range []struct {
		name string
		pack string
		big  bool // too large to pack: streamed even into a snapshot
		one  bool // d holds one file: packed on its own, not in a group
	}{
		{"streamed", "", false, false},
		{"packed in a group", "packs/run1", false, false},
		{"packed alone", "packs/run1", false, true},
		{"streamed beside a pack", "packs/run1", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			sh := memshare.New()
			sh.FollowLinks = true
			data := "the tenant's own file"
			if tc.big {
				data = strings.Repeat("x", packLimit+1)
			}
			files := []string{"vol/d/f", "vol/d/g"}
			if tc.one {
				files = files[:1]
			}
			for _, f := range files {
				if err := sh.WriteFileDirect(f, []byte(data)); err != nil {
					t.Fatal(err)
				}
			}
			other := secret
			if tc.big {
				other = secret + strings.Repeat("y", packLimit)
			}
			for _, f := range []string{"other/f", "other/g"} {
				if err := sh.WriteFileDirect(f, []byte(other)); err != nil {
					t.Fatal(err)
				}
			}
			admin := sh.Client().(share.TreeClient)
			// The tenant swaps vol/d for a link to the other volume just
			// before the first of d's files is opened: after the lister
			// checked d's ID and listed it.
			var once sync.Once
			var swapErr error
			worker := sh.Gated(func(op memshare.Op) {
				if !strings.HasPrefix(op.Path, "vol/d/") || (op.Name != "open" && op.Name != "read") {
					return
				}
				once.Do(func() {
					if swapErr = admin.Rename(ctx, "vol/d", "vol/d.moved"); swapErr == nil {
						swapErr = sh.Symlink("../other", "vol/d")
					}
				})
			}).(share.TreeClient)
			lister := sh.Client().(share.TreeClient)
			_, err := Copy(ctx, Sessions{Lister: lister, Workers: []Pair{{Src: worker, Dst: admin}}}, "vol", "snap", Options{PackTo: tc.pack})
			if swapErr != nil {
				t.Fatal(swapErr)
			}
			var swapped bool
			once.Do(func() {}) // the swap ran, or never will
			for _, e := range sh.Dump() {
				if e.Path == "vol/d" && e.Link != "" {
					swapped = true
				}
				if (strings.HasPrefix(e.Path, "snap") || strings.HasPrefix(e.Path, "packs")) && strings.Contains(e.Data, "SECRET") {
					t.Errorf("%s holds the other volume's data", e.Path)
				}
			}
			if !swapped {
				t.Fatal("the directory was never swapped: the test did not test")
			}
			if !errors.Is(err, share.ErrChanged) || !errors.Is(err, ErrIncomplete) {
				t.Errorf("copy of a directory swapped for a link after its listing: %v, want ErrChanged and ErrIncomplete", err)
			}
		})
	}
}

// A file an application replaces by renaming another over it, between the
// listing and the copy's open, is another file by ID as much as a link
// would be: the copy looks it up again through its directory's checked
// handle and copies it as it is now (as a file written during the copy is
// copied after the write), instead of failing every snapshot taken while
// such an application runs.
func TestAFileRenamedOverBeforeItIsOpenedIsCopiedAsItIsNow(t *testing.T) {
	const fresh = "the file as the application saved it again"
	for _, tc := range []struct {
		name string
		pack string
		one  bool
	}{
		{"streamed", "", false},
		{"packed in a group", "packs/run1", false},
		{"packed alone", "packs/run1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			sh := memshare.New()
			sh.FollowLinks = true
			files := []string{"vol/d/f", "vol/d/g"}
			if tc.one {
				files = files[:1]
			}
			for _, f := range files {
				if err := sh.WriteFileDirect(f, []byte("as it was listed")); err != nil {
					t.Fatal(err)
				}
			}
			admin := sh.Client().(share.TreeClient)
			worker, saved := savedAgainOnOpen(sh, "vol/d/f", fresh)
			lister := sh.Client().(share.TreeClient)
			_, err := Copy(ctx, Sessions{Lister: lister, Workers: []Pair{{Src: worker, Dst: admin}}}, "vol", "snap", Options{PackTo: tc.pack})
			saved(t)
			if err != nil {
				t.Fatalf("copy of a file renamed over after its listing: %v", err)
			}
			copied := false
			for _, e := range sh.Dump() {
				if (strings.HasPrefix(e.Path, "snap") || strings.HasPrefix(e.Path, "packs")) && strings.Contains(e.Data, fresh) {
					copied = true
				}
			}
			if !copied {
				t.Error("the copy does not hold the file as it is now")
			}
		})
	}
}

// savedAgainOnOpen is a worker session on sh whose first open or read of
// p finds that an application saved p again, with data, just before: a
// new file renamed over it, so the file the listing showed is gone.
// saved fails t when that never happened, or went wrong.
func savedAgainOnOpen(sh *memshare.Share, p, data string) (worker share.TreeClient, saved func(t *testing.T)) {
	ctx := context.Background()
	admin := sh.Client().(share.TreeClient)
	var once sync.Once
	var saveErr error
	worker = sh.Gated(func(op memshare.Op) {
		if op.Path != p || (op.Name != "open" && op.Name != "read") {
			return
		}
		once.Do(func() {
			// memshare's rename does not replace: the old file goes
			// first, which leaves the path to a new file all the same.
			if saveErr = sh.WriteFileDirect(p+".tmp", []byte(data)); saveErr == nil {
				if saveErr = admin.Remove(ctx, p); saveErr == nil {
					saveErr = admin.Rename(ctx, p+".tmp", p)
				}
			}
		})
	}).(share.TreeClient)
	return worker, func(t *testing.T) {
		t.Helper()
		if saveErr != nil {
			t.Fatal(saveErr)
		}
		never := true
		once.Do(func() { never = false })
		if !never {
			t.Fatal("the file was never replaced: the test did not test")
		}
	}
}
