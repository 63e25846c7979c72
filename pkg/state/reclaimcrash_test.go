package state

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// The reclaimer's passes, enumerated like the store's calls
// (TestEveryCrashPointConverges): the reclaimer is itself a mutating
// caller, and it is cut the same ways (its process killed, its context
// cancelled) at every share operation of its passes over what abandoned
// calls left. A new process's reclaimer then passes again, and the share
// must end as after passes that were never cut: whatever a cut pass left
// is found again by a later pass, never orphaned.

// reclaimScenario lays out what a call nobody retries left on the share.
type reclaimScenario struct {
	name  string
	setup func(t *testing.T, st *Store, sh *memshare.Share)
}

// abandonedSnapshot records snapshot snap-1 of pvc-a, not ready, with a
// partial copy (two files), as a copy stopped and never asked for again
// leaves it; pack says whether its run had begun its pack yet (copytree
// makes the partial tree's top before it starts the pack, and a resumed
// run drops the packs of earlier runs first). old: the record is one of a
// version before packs (Snapshot.Pack false), which never has any.
func abandonedSnapshot(pack, old bool) func(t *testing.T, st *Store, sh *memshare.Share) {
	return func(t *testing.T, st *Store, sh *memshare.Share) {
		t.Helper()
		ctx := context.Background()
		baseDir(t, st, sh)
		rec := madeVolume(t, st, sh)
		snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "snap-1", SourceVolumeID: "vol-id", SourcePath: rec.Path})
		if err != nil {
			t.Fatal(err)
		}
		if old {
			snap.Pack = false
			if err := st.writeJSON(ctx, snapshotRecord(snap.Key()), snap); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{"a.txt", "d/b.txt"} {
			if err := sh.WriteFileDirect(snap.PartialTree()+"/"+f, []byte("copy of "+f)); err != nil {
				t.Fatal(err)
			}
		}
		if pack {
			run, err := st.RunPack(snap)
			if err != nil {
				t.Fatal(err)
			}
			if err := sh.WriteFileDirect(run, []byte("pack of a stopped run")); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func reclaimScenarios() []reclaimScenario {
	return []reclaimScenario{
		{
			name: "an abandoned create",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				baseDir(t, st, sh)
				// Cut as cutCreate cuts it: after the MKDIR, before the record.
				sh.SetHook(func(op memshare.Op, when memshare.When) error {
					if strings.HasPrefix(op.Path, volumesDir+"/") && (op.Name == "write" || op.Name == "create") {
						return errDied
					}
					return nil
				})
				if _, err := st.Create(context.Background(), createReq()); err == nil {
					t.Fatal("the cut create succeeded")
				}
				sh.SetHook(nil)
			},
		},
		{
			name: "an abandoned restore, partly filled",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				baseDir(t, st, sh)
				req := createReq()
				req.ContentSource = "snapshot-id"
				if _, err := st.Create(context.Background(), req); err != nil {
					t.Fatal(err)
				}
				if err := sh.WriteFileDirect(volPath+"/restored.txt", []byte("what the copy wrote")); err != nil {
					t.Fatal(err)
				}
			},
		},
		{name: "an abandoned snapshot, its pack begun", setup: abandonedSnapshot(true, false)},
		{name: "an abandoned snapshot, its pack not begun", setup: abandonedSnapshot(false, false)},
		{name: "an abandoned snapshot of a version before packs", setup: abandonedSnapshot(false, true)},
	}
}

// passes has a new reclaimer (a new process) pass n times on sh, IntentTTL
// and a minute apart on c, with no call or copy running; it stops at the
// first pass that fails.
func passes(ctx context.Context, sh *memshare.Share, c *clock, n int) error {
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	for range n {
		c.t = c.t.Add(IntentTTL + time.Minute)
		if _, err := r.Pass(ctx, storeOn(sh, c), "share", lock); err != nil {
			return err
		}
	}
	return nil
}

func TestEveryReclaimerCrashPointConverges(t *testing.T) {
	const n = 4 // passes: a sighting, the pass IntentTTL after it, and the leftovers of those
	for _, sc := range reclaimScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			c := &clock{t: t0}
			base := memshare.New()
			sc.setup(t, storeOn(base, c), base)
			before := canon(base.Dump())

			ref := base.Clone()
			refClock := *c
			if err := passes(context.Background(), ref, &refClock, n); err != nil {
				t.Fatalf("the uncut passes failed: %v", err)
			}
			want := dropEmptyDirs(canon(ref.Dump()))
			if compare(dropEmptyDirs(before), want) == "" {
				t.Fatal("the uncut passes reclaimed nothing")
			}
			ops := ref.Ops()
			for i := 1; i <= ops; i++ {
				for _, mode := range []cutMode{dieBefore, dieAfter, cancelAt} {
					sh := base.Clone()
					cc := *c
					ctx, cancel := context.WithCancel(context.Background())
					sh.SetHook(cut(i, mode, cancel))
					_ = passes(ctx, sh, &cc, n)
					cancel()
					sh.SetHook(nil)
					// The next process's reclaimer.
					if err := passes(context.Background(), sh, &cc, n); err != nil {
						t.Errorf("%s op %d: the next process's passes failed: %v", mode, i, err)
						continue
					}
					if diff := compare(want, dropEmptyDirs(canon(sh.Dump()))); diff != "" {
						t.Errorf("%s op %d: after the next process's passes the share differs from uncut passes':\n%s", mode, i, diff)
					}
				}
			}
			t.Logf("%d operations, %d cuts", ops, 3*ops)
		})
	}
}
