package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// Two controllers on one share (two replicas, the standby's reclaimer
// running; or two clusters whose classes use the same NAS export): a
// restore and a snapshot copy that run for hours in one of them are no
// call and no copy of the other's, whose reclaimer took them for abandoned
// after an hour and deleted them under the running copy. The copy beats on
// the share; the other process's reclaimer spares what beats, and takes
// it only once the beat stayed the same (the copy's process died) or went
// (the copy ended without finishing) for IntentTTL. A beat nobody rewrites
// goes as well.
func TestAReclaimerSparesACopyAnotherProcessRuns(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	c := &clock{t0}
	st := storeOn(sh, c)
	req := createReq()
	req.ContentSource = "snapshot-id"
	vol, err := st.Create(ctx, req)
	if err != nil || !vol.Populating {
		t.Fatalf("restore: %+v, %v", vol, err)
	}
	must(t, sh.WriteFileDirect(volPath+"/restored.txt", []byte("hours of copying")))
	snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "snap", SourceVolumeID: "v-snap", SourcePath: "base/snap"})
	must(t, err)
	must(t, sh.WriteFileDirect(snap.PartialTree()+"/f", []byte("copied so far")))

	idle := func(string) bool { return false } // the other process: no call, no copy of its own
	other := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	pass := func() ReclaimReport {
		t.Helper()
		rep, err := other.Pass(ctx, storeOn(sh, c), "share", lock)
		must(t, err)
		return rep
	}
	there := func() (volume, snapshot bool) {
		_, verr := sh.Client().Stat(ctx, volPath+"/restored.txt")
		_, serr := sh.Client().Stat(ctx, snap.PartialTree()+"/f")
		return verr == nil, serr == nil
	}
	// Three hours of copying, the copies beating every BeatInterval and
	// the other reclaimer passing as often.
	for end := c.t.Add(3 * time.Hour); c.t.Before(end); {
		must(t, st.Beat(ctx, vol.UID, "other"))
		must(t, st.Beat(ctx, snap.UID, "other"))
		pass()
		c.t = c.t.Add(BeatInterval)
	}
	if v, s := there(); !v || !s {
		t.Fatalf("the other controller's reclaimer deleted a copy that beats: volume there %v, snapshot there %v", v, s)
	}
	// The copies' process dies: the beats stay as they were.
	for end := c.t.Add(IntentTTL + 2*time.Minute); c.t.Before(end); c.t = c.t.Add(time.Minute) {
		pass()
	}
	if v, s := there(); v || s {
		t.Fatalf("copies whose beat has not changed for IntentTTL are still there: volume %v, snapshot %v", v, s)
	}
	if _, err := st.intent(ctx, volPath); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the abandoned restore's intent: %v", err)
	}
	// A beat whose copy's volume went long ago (its process killed after
	// the delete's own removal of it): the reclaimer's sweep takes it
	// once it has stayed the same for IntentTTL.
	must(t, st.Beat(ctx, "0123abcd", "killed"))
	pass()
	c.t = c.t.Add(IntentTTL)
	pass()
	if names, err := sh.Client().List(ctx, busyDir, 0); err != nil || len(names) != 0 {
		t.Errorf("beats nobody rewrites stayed: %v %v", names, err)
	}
}

// A beat a killed controller left goes with what it beat for: the copy's
// commit (Populated, CompleteSnapshot) and the delete of its volume or
// snapshot remove it, whoever's it is, so nothing is left in busy/ once
// the volume or snapshot is finished or gone.
func TestABeatGoesWithWhatItBeatFor(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	beats := func() []string {
		names, err := sh.Client().List(ctx, busyDir, 0)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		return names
	}
	req := createReq()
	req.ContentSource = "snapshot-id"
	vol, err := st.Create(ctx, req)
	must(t, err)
	must(t, st.Beat(ctx, vol.UID, "killed"))
	vol, err = st.Populated(ctx, vol)
	must(t, err)
	if b := beats(); len(b) != 0 {
		t.Fatalf("beats after the volume was filled: %v", b)
	}
	must(t, st.Beat(ctx, vol.UID, "killed")) // a late one, of a copy killed after the commit
	must(t, st.DeleteVolume(ctx, vol))
	if b := beats(); len(b) != 0 {
		t.Fatalf("beats after the restored volume was deleted: %v", b)
	}
	for _, complete := range []bool{true, false} {
		snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: fmt.Sprint("snap-", complete), SourceVolumeID: "v", SourcePath: "base/v"})
		must(t, err)
		must(t, sh.WriteFileDirect(snap.PartialTree()+"/f", []byte("copied")))
		must(t, st.Beat(ctx, snap.UID, "killed"))
		if complete {
			snap, err = st.CompleteSnapshot(ctx, snap, "")
			must(t, err)
			if b := beats(); len(b) != 0 {
				t.Fatalf("beats after the snapshot was made ready: %v", b)
			}
			must(t, st.Beat(ctx, snap.UID, "killed"))
		}
		must(t, st.DeleteSnapshot(ctx, snap))
		if b := beats(); len(b) != 0 {
			t.Fatalf("beats after the snapshot was deleted (complete %v): %v", complete, b)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A copy of another process that runs late, after its copy was taken over
// (it could not beat for 30 seconds, then came back), writes on for up to
// a beat. Its pack is written from the start by every run, so it cut the
// pack of the copy that finished, which both wrote at one path. Each run
// now writes a pack of its own: the one that finished is moved into the
// snapshot's place, the others go, and a late write reaches no pack the
// snapshot keeps.
func TestALateCopysPackNeverLandsInTheSnapshot(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "snap", SourceVolumeID: "v", SourcePath: "base/v"})
	must(t, err)
	late, err := st.RunPack(snap)
	must(t, err)
	must(t, st.writeFile(ctx, late, []byte("the late run's pack, begun first")))
	owner, err := st.RunPack(snap)
	must(t, err)
	if owner == late || owner == snap.PackPath() || late == snap.PackPath() {
		t.Fatalf("two runs write one pack: %s, %s (the snapshot's: %s)", late, owner, snap.PackPath())
	}
	must(t, st.writeFile(ctx, owner, []byte("the finished run's pack")))
	must(t, sh.WriteFileDirect(snap.PartialTree()+"/f", []byte("copied")))
	snap, err = st.CompleteSnapshot(ctx, snap, owner)
	must(t, err)
	// The late run writes on, after the commit.
	_ = st.c.WriteFile(ctx, late, []byte("the late run's pack, rewritten from its start"))
	if b, err := st.c.ReadFile(ctx, snap.PackPath()); err != nil || string(b) != "the finished run's pack" {
		t.Fatalf("the snapshot's pack holds %q (%v), want the finished run's", b, err)
	}
	uidFiles := func() []string {
		var out []string
		for _, e := range sh.Dump() {
			if strings.Contains(e.Path, snap.UID+".pack") {
				out = append(out, e.Path)
			}
		}
		return out
	}
	if got := uidFiles(); len(got) != 1 {
		t.Errorf("after the commit and the late write: %v, want the snapshot's pack alone", got)
	}
	// A late run that held its pack open at the commit (SMB refuses to
	// delete it then) leaves it: the reclaimer takes it once it stayed
	// for IntentTTL, and never the snapshot's own.
	c := &clock{t0}
	must(t, storeOn(sh, c).writeFile(ctx, late, []byte("held open at the commit")))
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	for _, step := range []time.Duration{0, IntentTTL - time.Minute} {
		c.t = c.t.Add(step)
		if _, err := r.Pass(ctx, storeOn(sh, c), "share", lock); err != nil {
			t.Fatal(err)
		}
		if got := uidFiles(); len(got) != 3 { // the pack, the late one and its directory
			t.Fatalf("the reclaimer took packs before IntentTTL: %v left", got)
		}
	}
	c.t = c.t.Add(2 * time.Minute)
	if _, err := r.Pass(ctx, storeOn(sh, c), "share", lock); err != nil {
		t.Fatal(err)
	}
	if got := uidFiles(); len(got) != 1 || got[0] != snap.PackPath() {
		t.Errorf("after the reclaimer's passes: %v, want the snapshot's pack alone", got)
	}
	must(t, st.DeleteSnapshot(ctx, snap))
	if got := uidFiles(); len(got) != 0 {
		t.Errorf("after the delete: %v, want no pack", got)
	}
}
