package copytree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// What a source's server lists is not to be trusted: a copy fails, it
// never takes the controller down, nor makes up data. And a copy resumed
// after a cut ends as an uninterrupted one.

// lyingSize is a source whose server says the file "f" has a negative size
// (an NFSv3 size of 2^63 or more read as int64, an SMB EndOfFile with its
// top bit set).
type lyingSize struct{ share.TreeClient }

func (l lyingSize) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	return l.TreeClient.ReadDir(ctx, rel, func(page []share.DirEntry) error {
		for i := range page {
			if page[i].Name == "f" {
				page[i].Attr.Size = -1
			}
		}
		return fn(page)
	})
}

// A negative size fails the copy as a broken server's answer (it used to
// panic making a buffer of it, taking the controller down at every retry),
// streamed or packed.
func TestANegativeSizeFailsTheCopy(t *testing.T) {
	for _, pack := range []string{"", "the.pack"} {
		sh := memshare.New()
		if err := sh.WriteFileDirect("vol/f", []byte("data")); err != nil {
			t.Fatal(err)
		}
		c := sh.Client().(share.TreeClient)
		src := lyingSize{c}
		_, err := Copy(context.Background(), Sessions{Lister: src, Workers: []Pair{{Src: src, Dst: c}}}, "vol", "snap", Options{PackTo: pack})
		if !errors.Is(err, share.ErrUnavailable) {
			t.Errorf("pack %q: a file of size -1: %v, want ErrUnavailable", pack, err)
		}
	}
}

// A snapshot cut after its first run wrote a large file (or a link) into
// its tree, resumed once the file is small enough to pack: the pack's copy
// is the one, and the tree's goes. (The tree's stayed, and a restore, which
// unpacks first and then walks the tree, brought the old content back.)
func TestAResumedSnapshotKeepsNoStaleFileBesideItsPack(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	old := bytes.Repeat([]byte("A"), packLimit+1) // too large for the pack: a file in the tree
	if err := sh.WriteFileDirect("vol/f", old); err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect("vol/keep", []byte("keep")); err != nil {
		t.Fatal(err)
	}
	c := sh.Client().(share.TreeClient)
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
	// Run 1: the whole walk is done, the process dies before the commit
	// (its pack, packs/run1, is an earlier run's and is never used).
	if _, err := Copy(ctx, s, "vol", "snap.partial", Options{PackTo: "packs/run1"}); err != nil {
		t.Fatal(err)
	}
	// The tenant makes f small.
	if err := sh.WriteFileDirect("vol/f", []byte("new")); err != nil {
		t.Fatal(err)
	}
	// Run 2 resumes and finishes: its pack is the snapshot's.
	if _, err := Copy(ctx, s, "vol", "snap.partial", Options{PackTo: "packs/run2"}); err != nil {
		t.Fatal(err)
	}
	if a, err := c.Lstat(ctx, "snap.partial/f"); err == nil {
		t.Errorf("the snapshot's tree still holds f (%d bytes, from the run cut short) beside the pack's f", a.Size)
	}
	// Restore it into a new, empty volume.
	if err := c.Mkdir(ctx, "restored", 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Copy(ctx, s, "snap.partial", "restored", Options{UnpackFrom: "packs/run2", TopExists: true}); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadFile(ctx, "restored/f")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "new" {
		t.Errorf("restored f has %d bytes of the old content, want %q (what the source held for the whole copy that finished)", len(got), "new")
	}
}

func TestAResumedSnapshotKeepsNoStaleLinkBesideItsPack(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	if err := sh.WriteFileDirect("vol/keep", []byte("keep")); err != nil {
		t.Fatal(err)
	}
	if err := sh.Symlink("keep", "vol/x"); err != nil {
		t.Fatal(err)
	}
	c := sh.Client().(share.TreeClient)
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
	if _, err := Copy(ctx, s, "vol", "snap.partial", Options{PackTo: "packs/run1"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(ctx, "vol/x"); err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect("vol/x", []byte("now a file")); err != nil {
		t.Fatal(err)
	}
	if _, err := Copy(ctx, s, "vol", "snap.partial", Options{PackTo: "packs/run2"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Mkdir(ctx, "restored", 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := Copy(ctx, s, "snap.partial", "restored", Options{UnpackFrom: "packs/run2", TopExists: true})
	if err != nil {
		t.Errorf("restore of a snapshot whose copy finished: %v", err)
		_, err = Copy(ctx, s, "snap.partial", "restored", Options{UnpackFrom: "packs/run2", TopExists: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	if a, err := c.Lstat(ctx, "restored/x"); err != nil || a.Type != share.TypeFile {
		t.Errorf("restored x is a %v (%v), want the file the source held", a.Type, err)
	}
}

// listedBigger is a source whose listing says "f" is 3 MiB: the file
// shrank after it was listed (or the server's length lies).
type listedBigger struct{ share.TreeClient }

func (l listedBigger) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	return l.TreeClient.ReadDir(ctx, rel, func(page []share.DirEntry) error {
		for i := range page {
			if page[i].Name == "f" {
				page[i].Attr.Size = 3 << 20 // not packable, and larger than its data
			}
		}
		return fn(page)
	})
}

// copyData's comment: "The file shrank while being copied: copy what it
// has". It then says holes (end < size) and finishFile sets the listed
// size: the copy is the new data padded with zeros to the old length, a
// file the source never held.
// A file that shrank while it was copied is copied as it is, never padded
// with zeros to its listed size (it was: a log truncated during a snapshot
// came back as its new data and MiBs of zeros).
func TestAFileThatShrankIsCopiedAsItIsNotPadded(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	if err := sh.WriteFileDirect("vol/f", []byte("short")); err != nil {
		t.Fatal(err)
	}
	c := sh.Client().(share.TreeClient)
	src := listedBigger{c}
	if _, err := Copy(ctx, Sessions{Lister: src, Workers: []Pair{{Src: src, Dst: c}}}, "vol", "clone", Options{}); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadFile(ctx, "clone/f")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "short" {
		t.Errorf("the copy of a 5-byte file is %d bytes (%q...)", len(got), got[:min(8, len(got))])
	}
}

// chainTree is a source that stores nothing: one directory per level,
// levels deep, each named name (the 255 bytes a name may have when
// name is empty). A tenant
// makes it on an NFS volume with mkdir and cd in a loop (no path limit
// applies to relative operations, nor to NFS LOOKUPs).
type chainTree struct {
	share.TreeClient
	top    string
	levels int
	name   string
	// others are entries beside each level's directory that a copy
	// leaves out (FIFOs): each level's page is held while the walk is
	// below it.
	others int
}

var longName = strings.Repeat("x", 255)

func (c *chainTree) depth(rel string) int {
	return strings.Count(strings.TrimPrefix(rel, c.top), "/")
}

func (c *chainTree) Lstat(_ context.Context, rel string) (share.Attr, error) {
	return share.Attr{Type: share.TypeDir, ID: uint64(1000 + c.depth(rel)), Mode: 0o755, HasMode: true}, nil
}

func (c *chainTree) ReadDir(_ context.Context, rel string, fn func([]share.DirEntry) error) error {
	d := c.depth(rel)
	if d >= c.levels {
		return nil
	}
	name := c.name
	if name == "" {
		name = longName
	}
	page := []share.DirEntry{{Name: name, Attr: share.Attr{Type: share.TypeDir, ID: uint64(1001 + d), Mode: 0o755, HasMode: true}}}
	for i := range c.others {
		page = append(page, share.DirEntry{Name: fmt.Sprintf("fifo%d", i)})
	}
	return fn(page)
}

// The walk keeps each directory on its path with its source and
// destination paths, so a chain costs its depth times its path's length: a
// tenant's chain of a thousand 255-byte names (a few seconds of mkdir on
// NFS) held more than the controller's memory limit, which killed it at
// every retry. A path longer than maxPath fails the copy with ErrTooDeep,
// in bounded memory; a chain below it is copied whole.
func TestADeepChainOfLongNamesIsCopiedOrRefusedInBoundedMemory(t *testing.T) {
	for _, c := range []struct {
		levels  int
		refused bool
	}{{100, false}, {1000, true}} {
		src := &chainTree{top: "src", levels: c.levels}
		dst := &sink{}
		got, err := copyMeasured(src, dst)
		if c.refused != errors.Is(err, ErrTooDeep) || !c.refused && err != nil {
			t.Errorf("a chain of %d directories of 255-byte names: %v (refused: want %v)", c.levels, err, c.refused)
		}
		if !c.refused && dst.dirs.Load() < int64(c.levels) {
			t.Errorf("a chain of %d directories: %d copied", c.levels, dst.dirs.Load())
		}
		if got > copyMemoryLimit {
			t.Errorf("a chain of %d directories held %.1f MiB, more than the %d MiB a copy may", c.levels, float64(got)/(1<<20), copyMemoryLimit>>20)
		}
	}
}

// copyMeasured copies src's "src" into dst, and returns the peak of the
// heap and stacks while it ran, and the copy's error.
func copyMeasured(src *chainTree, dst *sink) (uint64, error) {
	stop := make(chan struct{})
	peak := peakHeap(stop)
	_, err := Copy(context.Background(), Sessions{Lister: src, Workers: []Pair{{Src: src, Dst: dst}}}, "src", "dst", Options{})
	close(stop)
	return <-peak, err
}

// A chain of one-byte names reaches maxPath only some 16,000 levels
// down, and the walk holds each level's paths and a stack frame: their
// paths add up to the depth squared (16,000 levels, a minute of mkdir and
// cd on an NFS volume, held 900 MiB of paths and more of stack). The walk
// goes down at most maxDepth levels, and counts the paths it holds
// against maxHeld, so such chains fail with ErrTooDeep in bounded memory:
// 500 levels of one-letter names are copied whole, and a thousand of
// 30-byte names (paths below maxPath, but 30 MiB of them) are refused.
func TestADeepChainOfShortNamesIsCopiedOrRefusedInBoundedMemory(t *testing.T) {
	for _, c := range []struct {
		levels, others int
		name           string
		refused        bool
	}{
		{500, 0, "x", false},
		{16000, 0, "x", true},
		{1000, 0, strings.Repeat("y", 30), true},
		// 16 MiB of paths: copied, as long as the pages held beside
		// them stay within the budget too.
		{500, 0, strings.Repeat("y", 62), false},
		{500, 60, strings.Repeat("y", 62), true},
	} {
		src := &chainTree{top: "src", levels: c.levels, name: c.name, others: c.others}
		dst := &sink{}
		got, err := copyMeasured(src, dst)
		if c.refused != errors.Is(err, ErrTooDeep) || !c.refused && err != nil {
			t.Errorf("a chain of %d directories of %d-byte names (%d others each): %.300v (refused: want %v)", c.levels, len(c.name), c.others, err, c.refused)
		}
		if !c.refused && dst.dirs.Load() < int64(c.levels) {
			t.Errorf("a chain of %d directories: %d copied", c.levels, dst.dirs.Load())
		}
		t.Logf("a chain of %d directories of %d-byte names (%d others each): peak %.1f MiB", c.levels, len(c.name), c.others, float64(got)/(1<<20))
		if got > copyMemoryLimit {
			t.Errorf("a chain of %d directories of %d-byte names held %.1f MiB, more than the %d MiB a copy may", c.levels, len(c.name), float64(got)/(1<<20), copyMemoryLimit>>20)
		}
	}
}

// swapping is a source session on a server that resolves links (Samba):
// the directory victim is swapped for a link to target after its parent's
// listing showed it, just before the walk lists it.
type swapping struct {
	share.TreeClient
	sh             *memshare.Share
	victim, target string
	done           bool
}

func (s *swapping) swap(ctx context.Context, rel string) error {
	if rel == s.victim && !s.done {
		s.done = true
		if err := s.TreeClient.Rename(ctx, s.victim, s.victim+".old"); err != nil {
			return err
		}
		if err := s.sh.Symlink(s.target, s.victim); err != nil {
			return err
		}
	}
	return nil
}

func (s *swapping) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	if err := s.swap(ctx, rel); err != nil {
		return err
	}
	return s.TreeClient.ReadDir(ctx, rel, fn)
}

func (s *swapping) ReadDirOf(ctx context.Context, rel string, id uint64, fn func([]share.DirEntry) error) error {
	if err := s.swap(ctx, rel); err != nil {
		return err
	}
	return s.TreeClient.(share.IDLister).ReadDirOf(ctx, rel, id, fn)
}

// On a server that shows links as what they lead to (Samba's default),
// another volume's root is refused by its mark when a link to it is
// listed; swapped in after the listing, it is copied whole.

// The walk lists a directory only when what its path opens is the
// directory the guard judged (share.IDLister): on a server that resolves
// links, a directory swapped for a link to another volume between its
// listing and its walk let that volume into the snapshot whole, past the
// root marks. It fails the copy (ErrIncomplete) instead; a listed link to
// another volume fails it as before.
func TestADirectorySwappedForALinkAfterItsListingIsNotCopied(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	sh.FollowLinks = true
	for p, d := range map[string]string{"base/pvc-a/d/own.txt": "own", "base/pvc-b/secret.txt": "another tenant's"} {
		if err := sh.WriteFileDirect(p, []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	c := sh.Client().(share.TreeClient)
	b, err := c.Lstat(ctx, "base/pvc-b")
	if err != nil {
		t.Fatal(err)
	}
	top, err := c.Lstat(ctx, "base/pvc-a")
	if err != nil {
		t.Fatal(err)
	}
	foreign := func(_ context.Context, _ share.Client, id uint64) (bool, error) { return id == b.ID, nil }
	// A link listed as such is refused (the guard works).
	if err := sh.Symlink("../pvc-b", "base/pvc-a/l"); err != nil {
		t.Fatal(err)
	}
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
	if _, err := Copy(ctx, s, "base/pvc-a", "snap1", Options{Foreign: foreign, TopID: top.ID}); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("a listed link to another volume: %v, want ErrIncomplete", err)
	}
	if err := c.Remove(ctx, "base/pvc-a/l"); err != nil {
		t.Fatal(err)
	}
	lister := &swapping{TreeClient: c, sh: sh, victim: "base/pvc-a/d", target: "../pvc-b"}
	s = Sessions{Lister: lister, Workers: []Pair{{Src: c, Dst: c}}}
	_, err = Copy(ctx, s, "base/pvc-a", "snap2", Options{Foreign: foreign, TopID: top.ID})
	if !lister.done {
		t.Fatal("the swap did not happen")
	}
	if data, rerr := c.ReadFile(ctx, "snap2/d/secret.txt"); rerr == nil {
		t.Errorf("the snapshot holds another volume's file %q (copy error: %v)", data, err)
	}
	if !errors.Is(err, ErrIncomplete) {
		t.Errorf("a directory swapped for a link to another volume mid-copy: %v, want ErrIncomplete", err)
	}
}
