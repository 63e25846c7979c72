package share

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// countingAsker answers a Guard from fixed sets and counts the questions.
type countingAsker struct {
	fenced, foreign []uint64
	sub             map[string][]uint64
	err             error
	reads, looks    atomic.Int32
	paths           []string
}

func (a *countingAsker) DirIDs(_ context.Context, paths []string) ([]uint64, error) {
	a.reads.Add(1)
	a.paths = paths
	return append([]uint64{0}, a.fenced...), a.err
}

func (a *countingAsker) SubdirIDs(_ context.Context, dir string) ([]uint64, error) {
	a.reads.Add(1)
	return a.sub[dir], a.err
}

// A Protect entry "dir/*" fences every directory directly in dir (the
// driver's holds), read with the other fenced IDs, once, and dir itself
// is looked up once even when Protect names it too.
func TestGuardFencesTheDirectoriesInAProtectedOne(t *testing.T) {
	ctx := context.Background()
	ask := &countingAsker{sub: map[string][]uint64{"m/holds": {41, 42}}}
	g := &Guard{Top: "base/vol", Protect: []string{"m", "m/holds", "m/holds/*"}}
	never := func(uint64) bool { return false }
	for _, id := range []uint64{41, 42} {
		if why, err := g.Refuse(ctx, ask, Attr{ID: id}, never); err != nil || why == "" {
			t.Errorf("directory %d in m/holds: refused %q, %v; want refused", id, why, err)
		}
	}
	if why, err := g.Refuse(ctx, ask, Attr{ID: 43}, never); err != nil || why != "" {
		t.Errorf("another directory: refused %q, %v; want entered", why, err)
	}
	if n := ask.reads.Load(); n != 2 {
		t.Errorf("%d reads of the fenced IDs, want 2 (the paths, and m/holds's directories) for the whole walk", n)
	}
	if want := []string{"", "base", "m", "m/holds"}; !slices.Equal(ask.paths, want) {
		t.Errorf("fenced paths %q, want %q", ask.paths, want)
	}
}

func (a *countingAsker) Foreign(_ context.Context, id uint64) (bool, error) {
	a.looks.Add(1)
	return slices.Contains(a.foreign, id), a.err
}

func TestGuardRefusesByTheOneRule(t *testing.T) {
	ctx := context.Background()
	fsid := [2]uint64{3, 4}
	g := &Guard{Top: "base/ns/vol", Protect: []string{".fileshare-csi/volumes"}, FSID: fsid}
	ask := &countingAsker{fenced: []uint64{7, 9}, foreign: []uint64{5}}
	anc := func(id uint64) bool { return id == 11 }
	for _, tc := range []struct {
		a      Attr
		refuse bool
	}{
		{Attr{ID: 20, FSID: fsid}, false},
		{Attr{ID: 20, FSID: [2]uint64{3, 5}}, true}, // another file system
		{Attr{ID: 11, FSID: fsid}, true},            // a loop
		{Attr{ID: 7, FSID: fsid}, true},             // above the top, or protected
		{Attr{ID: 5, FSID: fsid}, true},             // another volume's root
		{Attr{ID: 0, FSID: fsid}, false},            // no ID: judged by the file system alone
	} {
		why, err := g.Refuse(ctx, ask, tc.a, anc)
		if err != nil {
			t.Fatal(err)
		}
		if (why != "") != tc.refuse {
			t.Errorf("Refuse(%+v) = %q, want refused %v", tc.a, why, tc.refuse)
		}
	}
	if want := []string{"", "base", "base/ns", ".fileshare-csi/volumes"}; !slices.Equal(ask.paths, want) {
		t.Errorf("fenced paths %q, want %q", ask.paths, want)
	}
}

func TestGuardReadsOnceAndKeepsOnlyMarks(t *testing.T) {
	ctx := context.Background()
	g := &Guard{Top: "a/b"}
	ask := &countingAsker{fenced: []uint64{7}, foreign: []uint64{5}}
	never := func(uint64) bool { return false }
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			id := uint64(i%10 + 1)
			why, err := g.Refuse(ctx, ask, Attr{ID: id}, never)
			if err != nil {
				t.Error(err)
			}
			if want := id == 7 || id == 5; (why != "") != want {
				t.Errorf("Refuse(%d) = %q, want refused %v", id, why, want)
			}
		})
	}
	wg.Wait()
	if n := ask.reads.Load(); n != 1 {
		t.Errorf("the fenced IDs were read %d times, want once", n)
	}
	// A mark found is never asked about again; an unmarked ID is asked
	// each time (the guard's memory follows the marks, not the walk).
	before := ask.looks.Load()
	g.Refuse(ctx, ask, Attr{ID: 5}, never)
	if ask.looks.Load() != before {
		t.Error("a known mark was asked about again")
	}
	g.Refuse(ctx, ask, Attr{ID: 6}, never)
	if ask.looks.Load() != before+1 {
		t.Error("an unmarked ID was not asked about")
	}
	if len(g.foreign) != 1 {
		t.Errorf("the guard keeps %d IDs, want only the one mark", len(g.foreign))
	}
}

func TestGuardErrorsAreNotRemembered(t *testing.T) {
	ctx := context.Background()
	g := &Guard{Top: "a/b"}
	boom := errors.New("boom")
	never := func(uint64) bool { return false }
	if _, err := g.Refuse(ctx, &countingAsker{err: boom}, Attr{ID: 1}, never); !errors.Is(err, boom) {
		t.Fatalf("Refuse error %v does not wrap the cause", err)
	}
	ask := &countingAsker{fenced: []uint64{1}, foreign: []uint64{2}}
	if why, err := g.Refuse(ctx, ask, Attr{ID: 1}, never); err != nil || why == "" {
		t.Errorf("after a failed read: Refuse(1) = %q, %v; want refused", why, err)
	}
	if why, err := g.Refuse(ctx, ask, Attr{ID: 2}, never); err != nil || why == "" {
		t.Errorf("after a failed look-up: Refuse(2) = %q, %v; want refused", why, err)
	}
}
