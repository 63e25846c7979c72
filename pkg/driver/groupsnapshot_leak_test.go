package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A group snapshot with a member gone is refused before anything is
// written: no member's snapshot (a full copy nobody has an ID for) and no
// group record. (It used to leave the first member's finished snapshot and
// the group's record for good: the CO never got an ID, and the reclaimer
// leaves finished snapshots alone.) A member that goes between that look
// and its own snapshot still leaves them: undoing them could delete the
// snapshots of a group an earlier call answered, which the group's record
// does not tell apart yet.
func TestAFailedGroupSnapshotLeavesNothing(t *testing.T) {
	for _, gone := range []string{"before the call"} {
		t.Run(gone, func(t *testing.T) {
			ms := memshare.New()
			d := memshareDriver(t, ms)
			ctx := context.Background()
			a := createOn(t, d, "pvc-a", "delete")
			if err := ms.WriteFileDirect("pvc-a/data.txt", []byte("a's data")); err != nil {
				t.Fatal(err)
			}
			b := createOn(t, d, "pvc-b", "delete")
			if gone == "before the call" {
				if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: b}); err != nil {
					t.Fatal(err)
				}
			}
			_, err := d.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}})
			if status.Code(err) != codes.NotFound {
				t.Fatalf("a group snapshot with member b gone %s: %v, want NotFound", gone, err)
			}
			time.Sleep(100 * time.Millisecond) // a copy left running would write now
			var left []string
			for _, e := range ms.Dump() {
				if strings.HasPrefix(e.Path, ".fileshare-csi/snapshots/") && !e.Dir {
					left = append(left, e.Path)
				}
			}
			if len(left) > 0 {
				t.Errorf("the refused group snapshot left %v", left)
			}
			if _, err := ms.Client().ReadFile(ctx, "pvc-a/data.txt"); err != nil {
				t.Errorf("member a's data: %v", err)
			}
		})
	}
}
