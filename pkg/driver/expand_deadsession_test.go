package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// A ControllerExpandVolume whose pooled session died while idle (the
// server restarted) fails its first share operation, and the call runs its
// step once more on a new session (withShare). Wherever that first failure
// comes, the second run must record the size asked for, as an uninterrupted
// call does: run with what the failed first run returned (a size of 0), it
// found the record larger than that, wrote nothing, and answered the old
// size as the expansion's success.
func TestAnExpansionOnARetriedSessionRecordsTheNewSize(t *testing.T) {
	const want = 3 << 30
	for _, failOp := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("the dead session fails operation %d", failOp), func(t *testing.T) {
			ms := memshare.New()
			d := memshareDriver(t, ms)
			id := createOn(t, d, "pvc-a", "delete")
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if op.N == failOp && when == memshare.Before {
					return fmt.Errorf("the idle session was dead: %w", share.ErrUnavailable)
				}
				return nil
			})
			res, err := d.ControllerExpandVolume(context.Background(), &csi.ControllerExpandVolumeRequest{
				VolumeId: id, CapacityRange: &csi.CapacityRange{RequiredBytes: want},
			})
			ms.SetHook(nil)
			if err != nil {
				// Failed: the CO asks again, and that is another test's.
				t.Fatalf("the expansion: %v", err)
			}
			if res.GetCapacityBytes() != want {
				t.Errorf("the expansion answered %d bytes, want %d", res.GetCapacityBytes(), want)
			}
			var rec state.Record
			b, err := ms.Client().ReadFile(context.Background(), state.RecordPath("pvc-a"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.CapacityBytes != want {
				t.Errorf("the record says %d bytes after the expansion answered, want %d", rec.CapacityBytes, want)
			}
		})
	}
}
