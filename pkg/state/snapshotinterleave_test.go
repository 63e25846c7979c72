package state

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// The snapshot interleavings: a DeleteSnapshot cut at any share operation
// and a restore from that snapshot before the delete's retry (a second
// VolumeSnapshotContent naming the same snapshot handle, as a snapshot is
// handed to another namespace, whose VolumeSnapshot is restored while the
// first is deleted); and a restore cut at any share operation, then its
// snapshot's DeleteSnapshot before the restore's retry (the PVC stays
// Pending while csi-provisioner retries, and the user deletes the
// VolumeSnapshot). A restore is only ever answered with all the snapshot
// holds, and the volume it made stays whole; what is refused leaves
// nothing after the reclaimer; the source volume and the bystander are
// never touched.

// deleteSnapC is snap-c's DeleteSnapshot, done when it is gone.
func deleteSnapC(ctx context.Context, st *Store) error {
	snap, err := st.GetSnapshotByName(ctx, "snap-c")
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return st.DeleteSnapshot(ctx, snap)
}

// restoreReady is restoreSnapshot as the driver's CreateVolume runs it
// (resolveContent): a snapshot that is not ready is no source; the driver
// answers Unavailable, which the provisioner retries. A snapshot that is
// gone is no source either, but the volume this request filled whole from
// it is answered (FilledFrom: the driver's filledFrom).
func restoreReady(ctx context.Context, st *Store) error {
	snap, err := st.GetSnapshotByName(ctx, "snap-c")
	if errors.Is(err, ErrNotFound) {
		if filled, ferr := st.FilledFrom(ctx, restoredPath, "pvc-r", "snap-id"); ferr != nil || filled {
			return ferr
		}
	}
	if err != nil {
		return err
	}
	if !snap.Ready {
		return errors.New("snapshot not ready")
	}
	return restoreSnapshot(ctx, st)
}

// filesIn writes what lies under dir as lines, paths from dir.
func filesIn(sh *memshare.Share, dir string) string {
	var b strings.Builder
	for _, e := range sh.Dump() {
		if rel, ok := strings.CutPrefix(e.Path, dir+"/"); ok {
			fmt.Fprintf(&b, "%s dir=%v link=%q data=%q\n", rel, e.Dir, e.Link, e.Data)
		}
	}
	return b.String()
}

// checkSnapshotEnd: after the reclaimer, pvc-r holds what pvc-a holds
// when a restore was answered, and nothing of it is left when none was;
// pvc-a and the bystander are as they were; no intent, quarantine or
// snapshot is left.
func checkSnapshotEnd(t *testing.T, at string, base, sh *memshare.Share, restored bool) {
	t.Helper()
	want := filesIn(base, volPath)
	if got := filesIn(sh, volPath); got != want {
		t.Errorf("%s: the source volume holds\n%s\nwant\n%s", at, got, want)
	}
	if got := filesIn(sh, "base/bystander"); got != filesIn(base, "base/bystander") {
		t.Errorf("%s: the bystander holds %s", at, got)
	}
	got, there := filesIn(sh, restoredPath), false
	if _, ok := entryAt(sh, restoredPath); ok {
		there = true
	}
	switch {
	case restored && got != want:
		t.Errorf("%s: the restore was answered, and its volume holds\n%s\nwant\n%s", at, got, want)
	case !restored && there:
		t.Errorf("%s: no restore was answered, and its volume is left:\n%s", at, got)
	}
	for _, e := range sh.Dump() {
		for _, d := range []string{snapshotsDir + "/", intentsDir + "/", deletingDir + "/"} {
			if strings.HasPrefix(e.Path, d) {
				t.Errorf("%s: %s is left", at, e.Path)
			}
		}
	}
}

// TestACutSnapshotDeleteNeverRestoresPartly: DeleteSnapshot cut at any
// share operation, then a restore of it before the delete's retry, which
// the provisioner sends again until answered while the delete's retry
// comes in between; then the reclaimer.
func TestACutSnapshotDeleteNeverRestoresPartly(t *testing.T) {
	bg := context.Background()
	c, base, ref, err := uncut(t, copyScenarios()[1].setup, deleteSnapC)
	if err != nil {
		t.Fatal(err)
	}
	restoredN := 0
	eachCut(base, c, ref.Ops(), deleteSnapC, func(at string, sh *memshare.Share, _ error) {
		restoreErr := restoreReady(bg, storeOn(sh, c))
		if err := answer(t, sh, c, deleteSnapC); err != nil {
			t.Fatalf("%s: the delete's retry: %v", at, err)
		}
		if restoreErr != nil {
			restoreErr = restoreReady(bg, storeOn(sh, c))
			if !errors.Is(restoreErr, ErrNotFound) {
				t.Errorf("%s: the restore, its snapshot deleted: %v, want ErrNotFound", at, restoreErr)
			}
		}
		if restoreErr == nil {
			restoredN++
			if got, want := filesIn(sh, restoredPath), filesIn(base, volPath); got != want {
				t.Errorf("%s: the restore was answered, and its volume holds\n%s\nwant\n%s", at, got, want)
			}
		}
		reclaim(t, at, sh, c)
		checkSnapshotEnd(t, at, base, sh, restoreErr == nil)
	})
	t.Logf("%d operations: %d cuts left a restore answered", ref.Ops(), restoredN)
}

// TestACutRestoreWhoseSnapshotIsDeletedEndsWholeOrGone: a restore cut at
// any share operation, then its snapshot's DeleteSnapshot before the
// restore's retry; then the reclaimer, and the restore sent again.
func TestACutRestoreWhoseSnapshotIsDeletedEndsWholeOrGone(t *testing.T) {
	bg := context.Background()
	c, base, ref, err := uncut(t, copyScenarios()[1].setup, restoreReady)
	if err != nil {
		t.Fatal(err)
	}
	restoredN := 0
	eachCut(base, c, ref.Ops(), restoreReady, func(at string, sh *memshare.Share, cutErr error) {
		if err := answer(t, sh, c, deleteSnapC); err != nil {
			t.Fatalf("%s: the snapshot's delete: %v", at, err)
		}
		restoreErr := cutErr
		if cutErr != nil {
			restoreErr = answer(t, sh, c, restoreReady)
		}
		if restoreErr != nil && !errors.Is(restoreErr, ErrNotFound) {
			t.Errorf("%s: the restore's retry, its snapshot deleted: %v, want ErrNotFound", at, restoreErr)
		}
		if restoreErr == nil {
			restoredN++
		}
		if rec, err := storeOn(sh, c).record(bg, restoredPath); restoreErr != nil && err == nil && !rec.Populating {
			// Cut after its copy was whole: refused, the volume would
			// never be answered, so never deleted.
			t.Errorf("%s: the restore's retry was refused (%v), and left the whole volume it made", at, restoreErr)
		}
		reclaim(t, at, sh, c)
		checkSnapshotEnd(t, at, base, sh, restoreErr == nil)
	})
	t.Logf("%d operations: %d cuts left a restore answered", ref.Ops(), restoredN)
}
