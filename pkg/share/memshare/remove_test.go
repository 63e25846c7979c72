package memshare_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

// These tests hold share.RemoveTree, the one removal walk of every
// protocol, to its rule on a share in memory: on a server that shows links
// as links (NFS) and on one that resolves them for its clients (Samba),
// interrupted at every step, with its optional batching and workers.

const victim = "base/ns/vol-a"

var opts = share.RemoveOptions{Foreign: layout.Roots, Protect: layout.Protected()}

// attacked builds a share with the volume to delete and what a tenant who
// controls its files would aim at: another volume (marked as a root), the
// directories above, the driver's metadata, and a link to a file of
// another volume; and a loop. The volume also holds a link to a directory
// of its own.
func attacked(t *testing.T, follow bool) *memshare.Share {
	t.Helper()
	s := memshare.New()
	s.FollowLinks = follow
	for i := range 9 {
		must(t, s.WriteFileDirect(fmt.Sprintf("%s/f%d", victim, i), []byte("mine")))
	}
	must(t, s.WriteFileDirect(victim+"/sub/deep/er/file", []byte("mine")))
	must(t, s.WriteFileDirect(victim+"/sub/x", []byte("mine")))
	must(t, s.WriteFileDirect("base/ns/vol-b/data", []byte("theirs")))
	must(t, s.WriteFileDirect(layout.Volumes+"/b.json", []byte("{}")))
	must(t, s.WriteFileDirect(layout.Roots+"/"+fmt.Sprint(idOf(t, s, "base/ns/vol-b")), nil))
	must(t, s.Symlink("/base/ns/vol-b", victim+"/to-other"))
	must(t, s.Symlink("../..", victim+"/sub/to-above"))
	must(t, s.Symlink("..", victim+"/sub/loop"))
	must(t, s.Symlink("/"+layout.Dir, victim+"/to-meta"))
	must(t, s.Symlink("/base/ns/vol-b/data", victim+"/to-their-file"))
	must(t, s.Symlink("sub/deep", victim+"/alias"))
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func idOf(t *testing.T, s *memshare.Share, p string) uint64 {
	t.Helper()
	for _, e := range s.Dump() {
		if e.Path == p {
			return e.ID
		}
	}
	t.Fatalf("%s not found", p)
	return 0
}

// outside is everything of the share that is not the victim's.
func outside(s *memshare.Share) []memshare.Entry {
	var out []memshare.Entry
	for _, e := range s.Dump() {
		if e.Path != victim && !strings.HasPrefix(e.Path, victim+"/") {
			out = append(out, e)
		}
	}
	return out
}

func paths(es []memshare.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Path)
	}
	return out
}

func TestRemoveTreeTakesTheVolumeAndNothingElse(t *testing.T) {
	for _, follow := range []bool{false, true} {
		t.Run(fmt.Sprintf("follow-links=%v", follow), func(t *testing.T) {
			s := attacked(t, follow)
			before := outside(s)
			err := s.Client().RemoveAll(context.Background(), victim, opts)
			if got := outside(s); !slices.Equal(got, before) {
				t.Fatalf("the removal changed what is not the volume's:\nbefore %q\nafter  %q", paths(before), paths(got))
			}
			var rest []string
			for _, e := range s.Dump() {
				if strings.HasPrefix(e.Path, victim+"/") {
					rest = append(rest, e.Path)
				}
			}
			if !follow {
				// Links shown as links go as links: the volume goes whole.
				if err != nil || rest != nil {
					t.Fatalf("RemoveAll = %v, left %q; want the volume gone", err, rest)
				}
				return
			}
			// Links the server resolves to what the volume must not enter
			// stay, never entered, and say so; everything else went.
			if !errors.Is(err, share.ErrLeftBehind) {
				t.Fatalf("RemoveAll = %v, want ErrLeftBehind", err)
			}
			want := []string{victim + "/sub", victim + "/sub/loop", victim + "/sub/to-above", victim + "/to-meta", victim + "/to-other"}
			if !slices.Equal(rest, want) {
				t.Errorf("left %q, want %q", rest, want)
			}
		})
	}
}

// TestRemoveTreeConvergesFromEveryCut cuts the removal at every step it
// makes, before the step and after it (the reply lost), and with the
// context cancelled there; a retry on the state left must end as an
// uninterrupted removal ends, and the cut one must have touched nothing
// that is not the volume's.
func TestRemoveTreeConvergesFromEveryCut(t *testing.T) {
	cut := errors.New("cut")
	for _, follow := range []bool{false, true} {
		t.Run(fmt.Sprintf("follow-links=%v", follow), func(t *testing.T) {
			clean := attacked(t, follow)
			want := clean.Clone()
			want.SetHook(func(memshare.Op, memshare.When) error { return nil })
			wantErr := want.Client().RemoveAll(context.Background(), victim, opts)
			steps := want.Ops()
			if steps < 20 {
				t.Fatalf("an uninterrupted removal made %d steps; the tree should need more", steps)
			}
			cuts := 0
			for n := 1; n <= steps; n++ {
				for _, how := range []string{"before", "after", "cancel"} {
					s := clean.Clone()
					ctx, cancel := context.WithCancel(context.Background())
					s.SetHook(func(op memshare.Op, when memshare.When) error {
						if op.N != n {
							return nil
						}
						switch {
						case how == "before" && when == memshare.Before:
							return cut
						case how == "after" && when == memshare.After:
							return cut
						case how == "cancel" && when == memshare.Before:
							cancel()
						}
						return nil
					})
					err := s.Client().RemoveAll(ctx, victim, opts)
					cancel()
					if err == nil && how != "cancel" {
						t.Fatalf("cut %s step %d: RemoveAll succeeded", how, n)
					}
					if got := outside(s); !slices.Equal(got, outside(clean)) {
						t.Fatalf("cut %s step %d changed what is not the volume's: %q", how, n, paths(got))
					}
					s.SetHook(nil)
					err = s.Client().RemoveAll(context.Background(), victim, opts)
					if !sameClass(err, wantErr) {
						t.Fatalf("cut %s step %d: the retry answered %v, an uninterrupted removal %v", how, n, err, wantErr)
					}
					if got, w := s.Dump(), want.Dump(); !sameTree(got, w) {
						t.Fatalf("cut %s step %d: the retry left\n%q\nan uninterrupted removal\n%q", how, n, paths(got), paths(w))
					}
					cuts++
				}
			}
			t.Logf("%d steps, %d cuts, all converge", steps, cuts)
		})
	}
}

func sameClass(a, b error) bool {
	return (a == nil) == (b == nil) && errors.Is(a, share.ErrLeftBehind) == errors.Is(b, share.ErrLeftBehind)
}

// sameTree compares paths and contents (IDs differ only where a cut made
// nothing new, which a removal never does, so they are compared too).
func sameTree(a, b []memshare.Entry) bool { return slices.Equal(a, b) }

// fancy adds the optional interfaces a protocol may have: many unlinks to
// a request, and workers beside the walk.
type fancy struct {
	share.Remover
	batch    int
	workers  int
	released *atomic.Int32
	// goesOn: a failed unlink does not stop the request (an SMB2
	// compound); otherwise the names after it are skipped (a COMPOUND).
	goesOn bool
}

func (f fancy) UnlinkAll(ctx context.Context, dir string, names []string) ([]error, error) {
	n := min(len(names), f.batch)
	errs := make([]error, n)
	for i, name := range names[:n] {
		if errs[i] = f.Unlink(ctx, dir, name); errs[i] != nil && !f.goesOn {
			for j := i + 1; j < n; j++ {
				errs[j] = share.ErrSkipped
			}
			break
		}
	}
	return errs, nil
}

func (f fancy) Workers(context.Context) ([]share.Remover, func([]error)) {
	ws := make([]share.Remover, f.workers)
	for i := range ws {
		ws[i] = fancy{Remover: f.Remover, batch: f.batch, goesOn: f.goesOn}
	}
	return ws, func([]error) { f.released.Add(1) }
}

func TestRemoveTreeWithBatchesAndWorkers(t *testing.T) {
	for _, tc := range []struct{ follow, goesOn bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		follow := tc.follow
		t.Run(fmt.Sprintf("follow-links=%v,batch-goes-on=%v", follow, tc.goesOn), func(t *testing.T) {
			s := attacked(t, follow)
			s.PageSize = 64
			for i := range 200 {
				must(t, s.WriteFileDirect(fmt.Sprintf("%s/wide/d%d/f", victim, i%40), []byte(fmt.Sprint(i))))
				must(t, s.WriteFileDirect(fmt.Sprintf("%s/wide/f%d", victim, i), nil))
			}
			before := outside(s)
			var released atomic.Int32
			r := fancy{Remover: s.Client().(share.Remover), batch: 7, workers: 4, released: &released, goesOn: tc.goesOn}
			err := share.RemoveTree(context.Background(), r, victim, opts)
			if got := outside(s); !slices.Equal(got, before) {
				t.Fatalf("the removal changed what is not the volume's: %q", paths(got))
			}
			if released.Load() != 1 {
				t.Errorf("workers released %d times, want once", released.Load())
			}
			for _, e := range s.Dump() {
				if strings.HasPrefix(e.Path, victim+"/wide") {
					t.Fatalf("%s is left", e.Path)
				}
			}
			if follow != errors.Is(err, share.ErrLeftBehind) || !follow && err != nil {
				t.Errorf("RemoveAll = %v", err)
			}
		})
	}
}

func TestRemoveTreeFailsWholeWhenAWorkerFails(t *testing.T) {
	s := attacked(t, false)
	s.PageSize = 64
	for i := range 100 {
		must(t, s.WriteFileDirect(fmt.Sprintf("%s/wide/f%d", victim, i), nil))
	}
	before := outside(s)
	boom := errors.New("server gone")
	s.SetHook(func(op memshare.Op, when memshare.When) error {
		if op.Name == "remove" && strings.HasSuffix(op.Path, "/f50") {
			return boom
		}
		return nil
	})
	var released atomic.Int32
	r := fancy{Remover: s.Client().(share.Remover), batch: 1, workers: 4, released: &released}
	if err := share.RemoveTree(context.Background(), r, victim, opts); !errors.Is(err, boom) {
		t.Fatalf("RemoveAll = %v, want the worker's error", err)
	}
	if released.Load() != 1 {
		t.Errorf("workers released %d times, want once", released.Load())
	}
	s.SetHook(nil)
	if err := s.Client().RemoveAll(context.Background(), victim, opts); err != nil {
		t.Fatalf("the retry: %v", err)
	}
	if got := outside(s); !slices.Equal(got, before) {
		t.Fatalf("the removal changed what is not the volume's: %q", paths(got))
	}
}

// writer writes a new file into the volume after some of the walk's
// unlinks, as a pod still running would: the walk's next pass takes it.
type writer struct {
	share.Remover
	s     *memshare.Share
	after int
	n     int
	wrote []string
}

func (w *writer) Unlink(ctx context.Context, dir, name string) error {
	err := w.Remover.Unlink(ctx, dir, name)
	if w.n++; w.n%w.after == 0 && len(w.wrote) < 4 {
		p := fmt.Sprintf("%s/late%d", victim+"/sub", len(w.wrote))
		if w.s.WriteFileDirect(p, []byte("late")) == nil {
			w.wrote = append(w.wrote, p)
		}
	}
	return err
}

func TestRemoveTreeTakesWhatAWriterAddsMeanwhile(t *testing.T) {
	s := attacked(t, false)
	w := &writer{Remover: s.Client().(share.Remover), s: s, after: 3}
	if err := share.RemoveTree(context.Background(), w, victim, opts); err != nil {
		t.Fatalf("RemoveAll = %v", err)
	}
	if len(w.wrote) == 0 {
		t.Fatal("the writer never wrote: the test tests nothing")
	}
	for _, e := range s.Dump() {
		if strings.HasPrefix(e.Path, victim) {
			t.Fatalf("%s is left (the writer wrote %q)", e.Path, w.wrote)
		}
	}
}

func TestRemoveTreeRefusesWhatItMustNotTouch(t *testing.T) {
	ctx := context.Background()
	s := attacked(t, true)
	c := s.Client()
	before := s.Dump()
	for _, tc := range []struct {
		rel  string
		opts share.RemoveOptions
	}{
		{"", opts},                   // the share's base
		{"base/ns/vol-b", opts},      // another volume's root, by its mark
		{victim + "/to-other", opts}, // the same, through a link the server resolves
		{victim, share.RemoveOptions{Foreign: opts.Foreign, Protect: opts.Protect, RootID: 1}}, // not the directory checked
	} {
		err := c.RemoveAll(ctx, tc.rel, tc.opts)
		if err == nil {
			t.Errorf("RemoveAll(%q) succeeded", tc.rel)
		}
		if got := s.Dump(); !slices.Equal(got, before) {
			t.Fatalf("RemoveAll(%q) changed the share: %v", tc.rel, err)
		}
	}
}

// RemoveDir of a file, or of a link to one, fails as a server's RMDIR does
// (NOTDIR), and leaves it: the store never takes a file for an empty
// directory it may remove, nor for one that is not there.
func TestRemoveDirOfAFileIsRefused(t *testing.T) {
	for _, follow := range []bool{false, true} {
		s := memshare.New()
		s.FollowLinks = follow
		must(t, s.WriteFileDirect("vol/file", []byte("data")))
		must(t, s.Symlink("/vol/file", "vol/link"))
		c := s.Client()
		for _, p := range []string{"vol/file", "vol/link"} {
			rd := c.(share.Rmdirer)
			err := rd.RemoveDir(context.Background(), p)
			if !errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrNotExist) {
				t.Errorf("follow-links=%v: RemoveDir(%s) = %v, want ENOTDIR", follow, p, err)
			}
			if _, err := c.Stat(context.Background(), p); err != nil {
				t.Errorf("follow-links=%v: %s is gone: %v", follow, p, err)
			}
		}
	}
}
