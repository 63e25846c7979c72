package state

import (
	"context"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// Two controller processes on one share (a rolling update, a leader whose
// lease expired while it was only slow, two clusters whose classes use one
// export) serialize nothing between them: each process's locks are its own.
// These tests interleave the calls of two stores on one share, each on its
// own session, at chosen operations.

// heldAt starts call on a store of its own (a second process) and holds it
// just before the first operation at says is the one, until resume; it
// returns once the call is held there. resume lets it go on and answers
// what it answered.
func heldAt(t *testing.T, sh *memshare.Share, c *clock, at func(memshare.Op) bool, call func(context.Context, *Store) error) (resume func() error) {
	t.Helper()
	reached, goOn, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	var once sync.Once
	st := New(sh.Gated(func(op memshare.Op) {
		if !at(op) {
			return
		}
		first := false
		once.Do(func() { first = true })
		if first {
			close(reached)
			<-goOn
		}
	})).WithClock(c.now, testUID)
	go func() { done <- call(context.Background(), st) }()
	select {
	case <-reached:
	case err := <-done:
		t.Fatalf("the held call ended (%v) before the operation it is held at", err)
	}
	var resumed sync.Once
	var err error
	return func() error {
		resumed.Do(func() {
			close(goOn)
			err = <-done
		})
		return err
	}
}

// gatedStore is a store (another process) that runs then just before the
// first operation at says is the one.
func gatedStore(c *clock, sh *memshare.Share, at func(memshare.Op) bool, then func()) *Store {
	var once sync.Once
	return New(sh.Gated(func(op memshare.Op) {
		if at(op) {
			once.Do(then)
		}
	})).WithClock(c.now, testUID)
}

// onPath matches the operation name on the path p (or a rename from it).
func onPath(name, p string) func(memshare.Op) bool {
	return func(op memshare.Op) bool {
		return op.Name == name && (op.Path == p || strings.HasPrefix(op.Path, p+" -> "))
	}
}

// ready makes the share a share that has had volumes: the metadata
// directories are there, and creates take the batched way.
func ready(t *testing.T, sh *memshare.Share, c *clock) {
	t.Helper()
	ctx := context.Background()
	st := storeOn(sh, c)
	req := createReq()
	req.Path, req.Name = "base/first", "pvc-first"
	rec, err := st.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Dispose(ctx, rec.Path, rec.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
}

// Two claims whose subDirs resolve to one directory, each created by its
// own process at once: at most one of them gets it, and keeps its holds and
// its directory. Process A makes the directory (the batched way) and is
// slow to send its commit; process B, which found A's intent, takes the
// step-by-step way and adopts the directory A made (no mark yet). Either
// commits first. The two claims must never be answered with the one
// directory: the DeleteVolume of either would then delete the other's data.
func TestTwoProcessesTwoClaimsOneDirectory(t *testing.T) {
	for _, aFirst := range []bool{true, false} {
		name := "B commits first"
		if aFirst {
			name = "A commits first"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := &clock{t0}
			sh := memshare.New()
			ready(t, sh, c)
			key := storeOn(sh, c).recordPath(volPath)
			var recA Record
			resumeA := heldAt(t, sh, c, onPath("create", key), func(ctx context.Context, st *Store) error {
				var err error
				recA, err = st.Create(ctx, createReq())
				return err
			})
			other := createReq()
			other.Name = "pvc-other"
			// B's first write of its record (a temporary, or the record).
			atCommit := func(op memshare.Op) bool {
				return aFirst && strings.HasPrefix(op.Path, volumesDir+"/") && strings.Contains(op.Path, path.Base(key)) && !reads[op.Name]
			}
			recB, errB := gatedStore(c, sh, atCommit, func() { _ = resumeA() }).Create(ctx, other)
			errA := resumeA()
			if errA == nil && errB == nil {
				t.Fatalf("both claims were given %s: pvc-a as UID %s, pvc-other as UID %s", volPath, recA.UID, recB.UID)
			}
			if errA != nil && errB != nil {
				t.Fatalf("neither claim got the directory: %v; %v", errA, errB)
			}
			won := recA
			if errA != nil {
				won = recB
			}
			st := storeOn(sh, c)
			if got, err := st.record(ctx, volPath); err != nil || got.UID != won.UID {
				t.Fatalf("the record at %s: %+v, %v; want the one of UID %s", volPath, got, err, won.UID)
			}
			for _, a := range ancestors(volPath) {
				if _, err := sh.Client().Stat(ctx, st.holdDir(a)+"/"+st.key(volPath)); err != nil {
					t.Errorf("the hold of %s's volume on %s: %v", won.Name, a, err)
				}
			}
			if fi, err := sh.Client().Stat(ctx, volPath); err != nil || fi.ID != won.RootID {
				t.Errorf("the directory of %s's volume: %+v, %v; want ID %d", won.Name, fi, err, won.RootID)
			}
		})
	}
}

// One claim's CreateVolume served by two processes at once (a demoted
// leader's call still running while the new leader serves the retry):
// both answer the one volume, under the UID its record has. Answered with
// another UID, the claim's PV could never be deleted (its DeleteVolume
// finds no record with its UID, and deletes nothing): an orphan.
func TestTwoProcessesOneClaim(t *testing.T) {
	ctx := context.Background()
	c := &clock{t0}
	sh := memshare.New()
	ready(t, sh, c)
	key := storeOn(sh, c).recordPath(volPath)
	var recA Record
	resumeA := heldAt(t, sh, c, onPath("create", key), func(ctx context.Context, st *Store) error {
		var err error
		recA, err = st.Create(ctx, createReq())
		return err
	})
	atCommit := func(op memshare.Op) bool {
		return strings.HasPrefix(op.Path, volumesDir+"/") && strings.Contains(op.Path, path.Base(key)) && !reads[op.Name]
	}
	recB, errB := gatedStore(c, sh, atCommit, func() { _ = resumeA() }).Create(ctx, createReq())
	if errA := resumeA(); errA != nil || errB != nil {
		t.Fatalf("A: %v; B: %v", errA, errB)
	}
	got, err := storeOn(sh, c).record(ctx, volPath)
	if err != nil {
		t.Fatal(err)
	}
	if recA.UID != got.UID || recB.UID != got.UID {
		t.Errorf("answered UIDs %s (A) and %s (B); the record has %s", recA.UID, recB.UID, got.UID)
	}
}
