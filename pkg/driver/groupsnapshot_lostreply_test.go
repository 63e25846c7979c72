package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

// A CreateVolumeGroupSnapshot whose answer was recorded (state.Answered)
// but never reached the CO (the process died just after the write, or the
// call's deadline cut it there) is retried by the CO, which holds no ID for
// the group. When a member volume went in between, the retry must still
// end where the uninterrupted call ends, the CO holding the group's ID (the
// snapshots were taken); or, refused, leave nothing: a refusal of a group
// the CO cannot name leaves every member's full copy for good (the
// reclaimer leaves finished snapshots and answered groups alone).
func TestARetryOfAGroupSnapshotWhoseAnswerWasLostLeavesNothingUnnamed(t *testing.T) {
	for _, mode := range []string{"the process died just after the write", "the reply was lost"} {
		t.Run(mode, func(t *testing.T) {
			ms, d, a, b := twoVolumes(t)
			req := &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}}
			if mode == "the process died just after the write" {
				answered := diesAfterGroupRecordWrite(ms, 2)
				if _, err := d.CreateVolumeGroupSnapshot(context.Background(), req); err == nil {
					t.Fatal("the cut call answered")
				}
				if !*answered {
					t.Fatal("the call never recorded its answer")
				}
			} else if _, err := d.CreateVolumeGroupSnapshot(context.Background(), req); err != nil {
				// Answered, and the answer never reached the CO (the
				// call's deadline passed as it was sent).
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond) // copies still running end
			ms.SetHook(nil)
			// The CO holds no group ID; member b goes before its retry,
			// which the next process serves.
			d = memshareDriver(t, ms)
			if _, err := d.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: b}); err != nil {
				t.Fatal(err)
			}
			res, err := d.CreateVolumeGroupSnapshot(context.Background(), req)
			if err != nil {
				if left := groupLeftovers(ms); len(left) > 0 {
					t.Fatalf("the retry was refused (%v), and left what no ID the CO holds names: %v", err, left)
				}
				return
			}
			// Answered: the CO can delete what it made.
			id := res.GetGroupSnapshot().GetGroupSnapshotId()
			if n := len(res.GetGroupSnapshot().GetSnapshots()); n != 2 {
				t.Errorf("the retry answered %d snapshots, want 2", n)
			}
			if _, err := d.DeleteVolumeGroupSnapshot(context.Background(), &csi.DeleteVolumeGroupSnapshotRequest{GroupSnapshotId: id}); err != nil {
				t.Fatal(err)
			}
			if left := groupLeftovers(ms); len(left) > 0 {
				t.Errorf("the group deleted by the ID the retry answered left %v", left)
			}
		})
	}
}

// diesAfterGroupRecordWrite has the process die just after the n-th
// replace of group-1's record took effect (CreateGroup's is the first,
// Answered's the second): that operation and every later one fail, as to a
// process that is gone. It reports whether that write happened.
func diesAfterGroupRecordWrite(ms *memshare.Share, n int) *bool {
	rec := layout.Groups + "/" + state.GroupKey("group-1") + ".json"
	seen, dead := 0, false
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if dead {
			return share.ErrUnavailable
		}
		if when == memshare.After && op.Name == "replace" && strings.HasSuffix(op.Path, " -> "+rec) {
			if seen++; seen == n {
				dead = true
				return share.ErrUnavailable
			}
		}
		return nil
	})
	return &dead
}
