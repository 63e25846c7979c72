package driver

import (
	"context"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A group snapshot answered while a member's copy still ran (the CO holds
// the group's ID and its members'), then called again as b's volume goes
// between the call's look at the members and b's snapshot step: the
// member's snapshot is the group's, and the group's answer (refuseGroup)
// decides what becomes of it. startSnapshot deleted it as one of a plain
// CreateSnapshot it could not finish, and the group was then answered, and
// read, without it: a group the CO holds, taken together, lost a member
// whose ID the CO holds too.
func TestAGroupMemberWhoseSourceGoesMidCallIsNotDeletedFromTheGroup(t *testing.T) {
	ms, d, a, b := twoVolumes(t)
	if err := ms.WriteFileDirect("pvc-b/data.txt", []byte("b's data")); err != nil {
		t.Fatal(err)
	}
	// b's copy outlasts the call's wait (snapshotWait), then fails: the
	// group is answered with b's member not ready.
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.Before && op.Path == "pvc-b/data.txt" && op.Name != "lstat" && op.Name != "stat" {
			time.Sleep(snapshotWait + 300*time.Millisecond)
			return fmt.Errorf("connection reset: %w", share.ErrUnavailable)
		}
		return nil
	})
	req := &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}}
	first, err := d.CreateVolumeGroupSnapshot(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(first.GetGroupSnapshot().GetSnapshots()); n != 2 || first.GetGroupSnapshot().GetReadyToUse() {
		t.Fatalf("the first answer has %d snapshots, ready %v; want 2, b's not ready", n, first.GetGroupSnapshot().GetReadyToUse())
	}
	// b's copy fails: wait for its job to end, not for a time that a
	// loaded machine may outlast.
	for _, sn := range first.GetGroupSnapshot().GetSnapshots() {
		sid, err := volume.ParseSnapshotID(sn.GetSnapshotId())
		if err != nil {
			t.Fatal(err)
		}
		if j := d.jobs.Get(snapshotJobKey(sid.UID)); j != nil {
			select {
			case <-j.Done():
			case <-time.After(30 * time.Second):
				t.Fatal("a member's copy never ended")
			}
		}
	}
	ms.SetHook(nil)
	// The CO polls with the same call; b's record goes after the look.
	failSecondReadOfB(ms, fmt.Errorf("record gone: %w", fs.ErrNotExist))
	_, err = d.CreateVolumeGroupSnapshot(context.Background(), req)
	ms.SetHook(nil)
	t.Logf("the repeated call: %v", err)
	got, err := d.GetVolumeGroupSnapshot(context.Background(), &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: first.GetGroupSnapshot().GetGroupSnapshotId()})
	if err != nil {
		t.Fatalf("the group answered by the first call: %v", err)
	}
	if n := len(got.GetGroupSnapshot().GetSnapshots()); n != 2 {
		t.Errorf("the answered group has %d snapshots after the repeated call, want 2: a member the CO holds was deleted", n)
	}
}
