package driver

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// A group snapshot refused because a member is gone leaves nothing: no
// member's snapshot (a full copy nobody has an ID for) and no group record.
// A member gone before the call is refused before anything is written; one
// that goes between that look and its own snapshot has the group, which no
// call answered yet, deleted with what was made of it. (Both used to leave
// the first member's finished snapshot and the group's record for good:
// the CO never got an ID, and the reclaimer leaves finished snapshots
// alone.)
func TestAFailedGroupSnapshotLeavesNothing(t *testing.T) {
	for _, gone := range []string{"before the call", "during the call"} {
		t.Run(gone, func(t *testing.T) {
			ms, d, a, b := twoVolumes(t)
			ctx := context.Background()
			if gone == "before the call" {
				if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: b}); err != nil {
					t.Fatal(err)
				}
			} else {
				failSecondReadOfB(ms, fmt.Errorf("record gone: %w", fs.ErrNotExist))
			}
			_, err := d.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}})
			ms.SetHook(nil)
			if status.Code(err) != codes.NotFound {
				t.Fatalf("a group snapshot with member b gone %s: %v, want NotFound", gone, err)
			}
			time.Sleep(100 * time.Millisecond) // a copy left running would write now
			if left := groupLeftovers(ms); len(left) > 0 {
				t.Errorf("the refused group snapshot left %v", left)
			}
			if _, err := ms.Client().ReadFile(ctx, "pvc-a/data.txt"); err != nil {
				t.Errorf("member a's data: %v", err)
			}
		})
	}
}

// twoVolumes is a driver on a share in memory with volumes pvc-a (with a
// file) and pvc-b, and their IDs.
func twoVolumes(t *testing.T) (ms *memshare.Share, d *Driver, a, b string) {
	t.Helper()
	ms = memshare.New()
	d = memshareDriver(t, ms)
	a = createOn(t, d, "pvc-a", "delete")
	if err := ms.WriteFileDirect("pvc-a/data.txt", []byte("a's data")); err != nil {
		t.Fatal(err)
	}
	return ms, d, a, createOn(t, d, "pvc-b", "delete")
}

// failSecondReadOfB makes pvc-b's record answer err from its second read
// on: a group snapshot's look before anything is written passes, b's own
// snapshot does not.
func failSecondReadOfB(ms *memshare.Share, err error) {
	reads := 0
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.Before && op.Name == "read" && op.Path == state.RecordPath("pvc-b") {
			if reads++; reads > 1 {
				return err
			}
		}
		return nil
	})
}

// groupLeftovers lists the files of snapshots and group records on ms.
func groupLeftovers(ms *memshare.Share) []string {
	var left []string
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/snapshots/") && !e.Dir {
			left = append(left, e.Path)
		}
	}
	return left
}

// A call cut short after member a's snapshot began (b's session broke)
// leaves it and the group's record to its retry. When b goes before that
// retry, the retry is refused by the look before anything is written, and
// what the first call made goes with the refusal: the group was never
// answered.
func TestARetryRefusedByTheLookUndoesWhatTheCutCallMade(t *testing.T) {
	ms, d, a, b := twoVolumes(t)
	ctx := context.Background()
	failSecondReadOfB(ms, fmt.Errorf("connection reset: %w", share.ErrUnavailable))
	req := &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}}
	_, err := d.CreateVolumeGroupSnapshot(ctx, req)
	ms.SetHook(nil)
	if err == nil {
		t.Fatal("the cut call succeeded")
	}
	time.Sleep(100 * time.Millisecond) // a's copy finishes
	if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: b}); err != nil {
		t.Fatal(err)
	}
	_, err = d.CreateVolumeGroupSnapshot(ctx, req)
	if status.Code(err) != codes.NotFound {
		t.Fatalf("the retry with b gone: %v, want NotFound", err)
	}
	if left := groupLeftovers(ms); len(left) > 0 {
		t.Errorf("the refused group snapshot left %v", left)
	}
}

// A repeated CreateVolumeGroupSnapshot of a group already answered (the
// CO polls a group not ready yet with the same call, or resends one whose
// reply was lost), in which a member goes between the look and its own
// snapshot, deletes nothing: the CO holds the group's ID. (It is answered
// with the group, from its records: see
// TestARetryOfAGroupSnapshotWhoseAnswerWasLostLeavesNothingUnnamed.)
func TestARefusalNeverDeletesAnAnsweredGroup(t *testing.T) {
	ms, d, a, b := twoVolumes(t)
	ctx := context.Background()
	req := &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}}
	first, err := d.CreateVolumeGroupSnapshot(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	failSecondReadOfB(ms, fmt.Errorf("record gone: %w", fs.ErrNotExist))
	_, err = d.CreateVolumeGroupSnapshot(ctx, req)
	ms.SetHook(nil)
	t.Logf("the repeated call: %v", err)
	got, err := d.GetVolumeGroupSnapshot(ctx, &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: first.GetGroupSnapshot().GetGroupSnapshotId()})
	if err != nil {
		t.Fatalf("the group answered by the first call is gone after a repeated call: %v", err)
	}
	if n := len(got.GetGroupSnapshot().GetSnapshots()); n != 2 {
		t.Errorf("the answered group has %d snapshots, want 2", n)
	}
}
