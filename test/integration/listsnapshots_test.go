//go:build linux

package integration

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/driver"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// readCounter is a session that counts the files read through it.
type readCounter struct {
	share.Client
	reads *atomic.Int64
}

func (c readCounter) ReadFile(ctx context.Context, rel string) ([]byte, error) {
	c.reads.Add(1)
	return c.Client.ReadFile(ctx, rel)
}

// The external-snapshotter polls ListSnapshots with a snapshot ID while a
// snapshot is made. The ID names the record: the call reads that one
// record, not every snapshot record on the share (issue #26). The
// controller runs in this process, so its reads are counted at the
// session.
func TestListSnapshotsByIDReadsOneRecord(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var reads atomic.Int64
	pool := share.NewPool()
	pool.Dial = func(ctx context.Context, src source.Source, creds share.Credentials) (share.Client, error) {
		c, err := share.Dial(ctx, src, creds)
		if err != nil {
			return nil, err
		}
		return readCounter{Client: c, reads: &reads}, nil
	}
	defer pool.Close()
	d, err := driver.New(driver.Config{Name: "listone.fileshare.test", Version: "test", Controller: true, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}

	// Ten snapshot records on the share, written as CreateSnapshot writes
	// them (the copies themselves do not matter here).
	must(t, os.MkdirAll(env.nfs.Data+"/listone", 0o777))
	src, err := source.Parse(nfsSource("listone"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := share.Dial(ctx, src, share.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() }) // after the records' removal below
	st := state.New(c)
	vol := volume.Volume{Source: src, SubDir: "vol", OnDelete: volume.Delete, UID: "1111111111111111"}.ID()
	var snaps []state.Snapshot
	for i := range 10 {
		snap, err := st.CreateSnapshot(ctx, state.SnapshotRequest{Name: fmt.Sprintf("listone-%d-%d", os.Getpid(), i), SourceVolumeID: vol, SourcePath: "listone/vol"})
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, snap)
	}
	t.Cleanup(func() {
		for _, s := range snaps {
			if err := st.DeleteSnapshot(context.Background(), s); err != nil {
				t.Errorf("delete the record of %s: %v", s.Name, err)
			}
		}
	})

	want := snaps[4]
	id := volume.Snapshot{Source: src, Key: want.Key(), UID: want.UID}.ID()
	reads.Store(0)
	resp, err := d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{SnapshotId: id})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetEntries()) != 1 || resp.GetEntries()[0].GetSnapshot().GetSnapshotId() != id || resp.GetEntries()[0].GetSnapshot().GetSourceVolumeId() != vol {
		t.Fatalf("ListSnapshots(%s) = %v, want that snapshot alone", id, resp.GetEntries())
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("ListSnapshots by ID read %d files, want the one record", n)
	}

	// An ID whose record holds another UID (the name was deleted and made
	// again) lists nothing, for the same one read.
	gone := volume.Snapshot{Source: src, Key: want.Key(), UID: "0123456789abcdef"}.ID()
	reads.Store(0)
	if resp, err := d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{SnapshotId: gone}); err != nil || len(resp.GetEntries()) != 0 {
		t.Fatalf("ListSnapshots of a snapshot that is gone = %v, %v; want nothing", resp.GetEntries(), err)
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("ListSnapshots by the ID of a gone snapshot read %d files, want 1", n)
	}
	// With the source volume too, the snapshot must be of that volume.
	other := volume.Volume{Source: src, SubDir: "other", OnDelete: volume.Delete, UID: "2222222222222222"}.ID()
	if resp, err := d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{SnapshotId: id, SourceVolumeId: other}); err != nil || len(resp.GetEntries()) != 0 {
		t.Fatalf("ListSnapshots of the snapshot and another volume = %v, %v; want nothing", resp.GetEntries(), err)
	}

	// The counter sees reads: a listing by volume reads every record.
	reads.Store(0)
	resp, err = d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{SourceVolumeId: vol})
	if err != nil || len(resp.GetEntries()) != len(snaps) {
		t.Fatalf("ListSnapshots by volume = %d entries, %v; want %d", len(resp.GetEntries()), err, len(snaps))
	}
	if n := reads.Load(); n < int64(len(snaps)) {
		t.Fatalf("a listing of %d records counted %d reads: the counter does not see them", len(snaps), n)
	}
}
