package state

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// abandonedRestoreIntoHandMade is a share with an abandoned restore into
// an administrator's empty directory, its copy part done.
func abandonedRestoreIntoHandMade(t *testing.T, c *clock) *memshare.Share {
	sh := memshare.New()
	st := storeOn(sh, c)
	handMadeDir(t, st, sh)
	if err := createPVCAFromSnapshot(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	must(t, sh.WriteFileDirect(volPath+"/restored.txt", []byte("part of a copy")))
	return sh
}

// TestAnAbandonedRestoreIntoAHandMadeDirectoryIsReported: the pass that
// keeps it says so (rep.Kept), and leaves nothing of the driver's for it.
func TestAnAbandonedRestoreIntoAHandMadeDirectoryIsReported(t *testing.T) {
	c := &clock{t: t0}
	sh := abandonedRestoreIntoHandMade(t, c)
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	var kept []string
	for range 3 {
		c.t = c.t.Add(IntentTTL + time.Minute)
		rep, err := r.Pass(context.Background(), storeOn(sh, c), "s", lock)
		must(t, err)
		kept = append(kept, rep.Kept...)
	}
	if len(kept) != 1 || kept[0] != volPath {
		t.Errorf("kept reported %v, want [%s]", kept, volPath)
	}
	for _, l := range dropEmptyDirs(canon(sh.Dump())) {
		if l[0] == '.' {
			t.Errorf("left of the driver's: %s", l)
		}
	}
}

// TestEveryReclaimerCutOfAnAbandonedRestoreConverges: the reclaimer's
// rollback of an abandoned restore into a hand-made directory, cut at
// each of its operations, ends where an uncut pass ends once the
// reclaimer passes again (record, holds, mark and intent go; the
// directory stays with its copy).
func TestEveryReclaimerCutOfAnAbandonedRestoreConverges(t *testing.T) {
	c := &clock{t: t0}
	base := abandonedRestoreIntoHandMade(t, c)
	ref := base.Clone()
	reclaim(t, "uncut", ref, c)
	want := dropEmptyDirs(canon(ref.Dump()))
	ops := ref.Ops()
	for n := 1; n <= ops; n++ {
		for _, mode := range []cutMode{dieBefore, dieAfter} {
			sh := base.Clone()
			sh.SetHook(cut(n, mode, func() {}))
			cc := &clock{t: c.t}
			idle := func(string) bool { return false }
			r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
			lock := func(context.Context, string) (func(), error) { return func() {}, nil }
			for range 3 {
				cc.t = cc.t.Add(IntentTTL + time.Minute)
				_, _ = r.Pass(context.Background(), storeOn(sh, cc), "share", lock)
			}
			sh.SetHook(nil)
			at := fmt.Sprintf("%s op %d", mode, n)
			reclaim(t, at, sh, cc)
			if diff := compare(want, dropEmptyDirs(canon(sh.Dump()))); diff != "" {
				t.Errorf("%s: after the cut pass and more passes:\n%s", at, diff)
			}
		}
	}
}
