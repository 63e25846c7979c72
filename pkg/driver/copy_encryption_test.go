package driver

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// TestACopyFromARequiredClassIsWrittenEncrypted: a clone or a restore of
// a volume whose class requires SMB encryption, into a class of another
// share that only prefers it, writes the data through sessions that
// require encryption: what the first class keeps never crosses the
// network readable because a user copied it into the second. The copy's
// other writes (its record, on the destination class's own sessions) hold
// no volume data.
func TestACopyFromARequiredClassIsWrittenEncrypted(t *testing.T) {
	for _, kind := range []string{"clone", "restore"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			ms := memshare.New()
			var mu sync.Mutex
			var dialed []source.Source // memshare numbers sessions from 1 as they are made
			pool := share.NewPool()
			pool.Dial = func(_ context.Context, src source.Source, _ share.Credentials) (share.Client, error) {
				mu.Lock()
				defer mu.Unlock()
				dialed = append(dialed, src)
				return ms.Client(), nil
			}
			t.Cleanup(pool.Close)
			d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
			if err != nil {
				t.Fatal(err)
			}
			req := deadCreateReq("pvc-src", nil)
			req.Parameters["source"], req.Secrets = deadSMB+"?encryption=required", deadSecrets
			src, err := d.CreateVolume(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if err := ms.WriteFileDirect("base/pvc-src/secret.txt", []byte("kept encrypted on the wire")); err != nil {
				t.Fatal(err)
			}
			cs := &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: src.GetVolume().GetVolumeId()}}}
			if kind == "restore" {
				snap, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: src.GetVolume().GetVolumeId(), Secrets: deadSecrets})
				if err != nil || !snap.GetSnapshot().GetReadyToUse() {
					t.Fatalf("CreateSnapshot: %v, %v", snap, err)
				}
				cs = &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: snap.GetSnapshot().GetSnapshotId()}}}
			}
			var writers []int
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if when == memshare.Before && strings.HasPrefix(op.Path, "base/pvc-copy/") {
					mu.Lock()
					writers = append(writers, op.Session)
					mu.Unlock()
				}
				return nil
			})
			copyReq := deadCreateReq("pvc-copy", cs)
			// Another share of the same server (this memshare stands for
			// both): on one share, the copy's sessions are the source's.
			copyReq.Parameters["source"], copyReq.Secrets = strings.Replace(deadSMB, "/share/", "/other/", 1), deadSecrets
			if _, err := d.CreateVolume(ctx, copyReq); err != nil {
				t.Fatal(err)
			}
			ms.SetHook(nil)
			if e, ok := entryOf(ms, "base/pvc-copy/secret.txt"); !ok || e.Data != "kept encrypted on the wire" {
				t.Fatalf("the copy holds %+v (there: %v)", e, ok)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(writers) == 0 {
				t.Fatal("no operation in the copy's directory was seen")
			}
			for _, s := range writers {
				if enc := dialed[s-1].Encryption; enc != source.EncryptionRequired {
					t.Errorf("session %d wrote into the copy with encryption %q, want %q", s, enc, source.EncryptionRequired)
				}
			}
		})
	}
}

func entryOf(ms *memshare.Share, p string) (memshare.Entry, bool) {
	for _, e := range ms.Dump() {
		if e.Path == p {
			return e, true
		}
	}
	return memshare.Entry{}, false
}
