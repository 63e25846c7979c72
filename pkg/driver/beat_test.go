package driver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A snapshot's copy says on the share that it runs while it does (so that
// no reclaimer of another process, replica or cluster takes it for
// abandoned: state's TestAReclaimerSparesACopyAnotherProcessRuns), and
// stops saying so when it ends.
func TestACopyBeatsOnTheShareWhileItRuns(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	id := createOn(t, d, "pvc-a", "delete")
	if err := ms.WriteFileDirect("pvc-a/data.txt", []byte("the tenant's")); err != nil {
		t.Fatal(err)
	}
	// The share's operations, in order: the copy's reads of the volume,
	// and the writes and removals of beats. (A hook runs under the
	// in-memory share's lock, so it records; it cannot hold the copy.)
	var mu sync.Mutex
	var ops []memshare.Op
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.After && (strings.HasPrefix(op.Path, "pvc-a/") || strings.HasPrefix(op.Path, ".fileshare-csi/busy/")) {
			mu.Lock()
			ops = append(ops, op)
			mu.Unlock()
		}
		return nil
	})
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id})
		if err == nil && resp.GetSnapshot().GetReadyToUse() {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the snapshot is not ready: %v, %v", resp, err)
		}
	}
	ms.SetHook(nil)
	firstRead, lastRead, beat, stopped := -1, -1, -1, -1
	for i, op := range ops {
		switch {
		case strings.HasPrefix(op.Path, "pvc-a/"):
			if firstRead < 0 {
				firstRead = i
			}
			lastRead = i
		case op.Name == "write" && beat < 0:
			beat = i
		case op.Name == "remove":
			stopped = i
		}
	}
	if firstRead < 0 || beat < 0 || stopped < 0 || beat > firstRead || stopped < lastRead {
		t.Fatalf("the copy read the volume at operations %d to %d, beat at %d and stopped at %d: want a beat before the copy and its removal after: %+v", firstRead, lastRead, beat, stopped, ops)
	}
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/busy/") && !e.Dir {
			t.Errorf("a beat stayed after the copy ended: %s", e.Path)
		}
	}
}
