package driver

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// TestACutSnapshotOfADeletedVolumeEndsWholeOrGone: a CreateSnapshot cut
// at any share operation (the controller died before it, or after it with
// the reply lost, or the call's deadline came there), then its source
// volume's DeleteVolume (the user deleted the VolumeSnapshot, which frees
// the PVC, and the PVC) before the snapshot's retry, which
// csi-snapshotter sends until it is answered (the content is "being
// created"), on a restarted controller. The volume is deleted as asked.
// The retry either answers the snapshot ready, and a restore of it holds
// all the volume held, or refuses it with NotFound: the CO then never has
// its ID, so after the reclaimer's passes nothing of it may be left. The
// volume beside it is never touched.
func TestACutSnapshotOfADeletedVolumeEndsWholeOrGone(t *testing.T) {
	bg := context.Background()
	setup := func(t *testing.T) (*memshare.Share, string) {
		ms := memshare.New()
		d := memshareDriver(t, ms)
		deadVolume(t, d, ms, "pvc-other", "delete")
		return ms, deadVolume(t, d, ms, "pvc-src", "delete")
	}
	snapReq := func(id string) *csi.CreateSnapshotRequest {
		return &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id}
	}
	ms, id := setup(t)
	ms.SetHook(func(memshare.Op, memshare.When) error { return nil })
	if _, err := memshareDriver(t, ms).CreateSnapshot(bg, snapReq(id)); err != nil {
		t.Fatal(err)
	}
	ops := ms.Ops()
	answered, refused := 0, 0
	for n := 1; n <= ops; n++ {
		for _, mode := range []string{"die before", "die after", "cancel at"} {
			at := fmt.Sprintf("%s op %d", mode, n)
			ms, id := setup(t)
			old := memshareDriver(t, ms)
			ctx, cancel := context.WithCancel(bg)
			var seen atomic.Int64
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if when == memshare.Before && seen.Add(1) == int64(n) && mode == "cancel at" {
					cancel()
				}
				k := int(seen.Load())
				if mode == "cancel at" || k < n || k == n && mode == "die after" && when == memshare.Before {
					return nil
				}
				return fmt.Errorf("the controller died: %w", share.ErrUnavailable)
			})
			_, _ = old.CreateSnapshot(ctx, snapReq(id))
			cancel()
			// The process is gone: its copies with it.
			if err := old.StopCopies(bg); err != nil {
				t.Fatal(err)
			}
			ms.SetHook(nil)

			d := memshareDriver(t, ms)
			if _, err := callUntilAnswered(func() (bool, error) {
				_, err := d.DeleteVolume(bg, &csi.DeleteVolumeRequest{VolumeId: id})
				return true, err
			}); err != nil {
				t.Fatalf("%s: the source's DeleteVolume: %v", at, err)
			}
			var snap *csi.Snapshot
			_, err := callUntilAnswered(func() (bool, error) {
				res, err := d.CreateSnapshot(bg, snapReq(id))
				snap = res.GetSnapshot()
				return snap.GetReadyToUse(), err
			})
			switch status.Code(err) {
			case codes.OK:
				answered++
				restored := checkRestore(t, at, d, ms, snap.GetSnapshotId())
				reclaimShare(t, at, ms)
				if restored {
					checkFiles(t, at+", after the reclaimer", ms, "pvc-r")
				}
			case codes.NotFound:
				refused++
				reclaimShare(t, at, ms)
				for _, e := range ms.Dump() {
					if strings.HasPrefix(e.Path, state.Dir+"/snapshots/") {
						t.Errorf("%s: refused with %v, the CO never has the snapshot's ID, and the reclaimer left %s", at, err, e.Path)
					}
				}
			default:
				t.Errorf("%s: the snapshot's retry answered %v: want it ready, or NotFound", at, err)
				continue
			}
			for _, e := range ms.Dump() {
				if strings.HasPrefix(e.Path, "pvc-src") || strings.HasPrefix(e.Path, state.Dir+"/deleting/") || strings.HasPrefix(e.Path, state.Dir+"/intents/") {
					t.Errorf("%s: the volume was deleted, and %s is left", at, e.Path)
				}
			}
			checkFiles(t, at, ms, "pvc-other")
		}
	}
	t.Logf("%d operations: %d cuts answered ready, %d refused", ops, answered, refused)
	if answered == 0 || refused == 0 {
		t.Error("the cuts do not end both ways: the test does not test what it is for")
	}
}

// callUntilAnswered sends a call again, as a CO does, while it answers a
// code that asks for a retry or says it is not done (done false).
func callUntilAnswered(call func() (done bool, err error)) (bool, error) {
	var done bool
	var err error
	for range 6 {
		done, err = call()
		switch status.Code(err) {
		case codes.Unavailable, codes.Aborted, codes.DeadlineExceeded:
			continue
		case codes.OK:
			if !done {
				continue
			}
		}
		return done, err
	}
	return done, err
}

// checkRestore restores the snapshot sid into pvc-r, which must hold what
// pvc-src held when it was taken, and says whether it did.
func checkRestore(t *testing.T, at string, d *Driver, ms *memshare.Share, sid string) bool {
	t.Helper()
	req := deadCreateReq("pvc-r", &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{
		Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: sid}}})
	if _, err := callUntilAnswered(func() (bool, error) {
		_, err := d.CreateVolume(context.Background(), req)
		return true, err
	}); err != nil {
		t.Errorf("%s: the snapshot was answered ready, and its restore failed: %v", at, err)
		return false
	}
	checkFiles(t, at+", restored", ms, "pvc-r")
	return true
}

// checkFiles: the volume at dir holds what deadVolume wrote into pvc-src
// (for pvc-r, restored from it) or into dir, and nothing else.
func checkFiles(t *testing.T, at string, ms *memshare.Share, dir string) {
	t.Helper()
	of := strings.TrimSuffix(dir, "-r") + "-src"
	if dir == "pvc-other" {
		of = dir
	}
	want := map[string]string{dir + "/data.txt": of + "'s data", dir + "/sub/more.txt": of + "'s more"}
	got := map[string]string{}
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, dir+"/") && !e.Dir {
			got[e.Path] = e.Data
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %s holds %v, want %v", at, dir, got, want)
	}
}

// reclaimShare has the reclaimer pass three times over the share, as
// hours go by with no call or copy running, as pkg/state's tests do.
func reclaimShare(t *testing.T, at string, ms *memshare.Share) {
	t.Helper()
	now := time.Now()
	var seq atomic.Int64
	st := state.New(ms.Client()).WithClock(func() time.Time { return now }, func() (string, error) {
		return fmt.Sprintf("feed%012x", seq.Add(1)), nil
	})
	idle := func(string) bool { return false }
	r := state.Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	for range 3 {
		now = now.Add(state.IntentTTL + time.Minute)
		if _, err := r.Pass(context.Background(), st, "share", lock); err != nil {
			t.Fatalf("%s: reclaim: %v", at, err)
		}
	}
}
