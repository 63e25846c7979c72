package driver

import (
	"context"
	"fmt"
	"io/fs"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

// A session that sat idle in the pool and died (the server restarted)
// fails the write that records a group snapshot as answered before it
// reaches the server; the call runs its step once more on a new session
// (withShare). That second run must write the record again: run with the
// group as the failed first run left it (marked answered in memory only),
// it wrote nothing, the call answered the group's ID, and the record still
// said no call had. A repeated call refused because a member went then
// deleted the group and its members' snapshots, whose IDs the CO holds.
func TestAGroupSnapshotAnsweredOnARetriedSessionIsRecordedAnswered(t *testing.T) {
	ms, d, a, b := twoVolumes(t)
	req := &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}}
	tmp := layout.Groups + "/" + state.TempPrefix + state.GroupKey("group-1") + ".json"
	writes, failed := 0, false
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		// The second write of the record's temporary is Answered's (the
		// first is CreateGroup's): its session is dead.
		if when == memshare.Before && op.Name == "write" && op.Path == tmp {
			if writes++; writes == 2 {
				failed = true
				return fmt.Errorf("the idle session was dead: %w", share.ErrUnavailable)
			}
		}
		return nil
	})
	first, err := d.CreateVolumeGroupSnapshot(context.Background(), req)
	ms.SetHook(nil)
	if !failed {
		t.Fatal("Answered's write was never made")
	}
	if err != nil {
		t.Fatalf("the call, its step run again on a new session: %v", err)
	}
	// The CO holds the group's ID now.
	st := state.New(ms.Client())
	if g, err := st.FindGroup(context.Background(), "group-1"); err != nil || g.Unanswered {
		t.Errorf("the group the call answered is recorded %+v (%v): as never answered", g, err)
	}
	// The CO polls with the same call; member b goes meanwhile.
	failSecondReadOfB(ms, fmt.Errorf("record gone: %w", fs.ErrNotExist))
	_, err = d.CreateVolumeGroupSnapshot(context.Background(), req)
	ms.SetHook(nil)
	t.Logf("the repeated call: %v", err)
	got, err := d.GetVolumeGroupSnapshot(context.Background(), &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: first.GetGroupSnapshot().GetGroupSnapshotId()})
	if err != nil {
		t.Fatalf("the group answered by the first call was deleted by a repeated call: %v", err)
	}
	if n := len(got.GetGroupSnapshot().GetSnapshots()); n != 2 {
		t.Errorf("the answered group has %d snapshots, want 2", n)
	}
}
