package driver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// gatedOpen is a session on the whole share whose Open of one path waits,
// once, for the test: a snapshot copy that is slow on one file.
type gatedOpen struct {
	subTree
	gate func(p string)
}

func (g gatedOpen) Open(ctx context.Context, p string) (share.FileReader, error) {
	g.gate(p)
	return g.subTree.Open(ctx, p)
}

// Tenant X snapshots its volume db (class template ${pvc.metadata.name});
// the copy runs in the background, unlocked. X's DeleteVolume is not held
// up by it, and tenant Y's claim db (another namespace, same class) gets
// the path. The copy goes on reading db/... by path: Y's file lands in
// X's snapshot, which X restores and reads.
func TestASnapshotCopyNeverReadsAVolumeMadeAtItsSourcesPathSince(t *testing.T) {
	ctx := context.Background()
	ms, d, x, reached, release := gatedVolumeX(t)
	const src, tmpl = "nfs://127.0.0.1/export/base", "${pvc.metadata.name}"
	first := make(chan string, 1)
	go func() {
		r, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-x", SourceVolumeId: x.GetVolume().GetVolumeId()})
		if err != nil {
			t.Logf("CreateSnapshot: %v", err)
		}
		first <- r.GetSnapshot().GetSnapshotId()
	}()
	select {
	case <-reached:
	case <-time.After(10 * time.Second):
		t.Fatal("the copy never opened db/z.txt")
	}
	// While X's copy is between its listing and its read of z.txt.
	if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: x.GetVolume().GetVolumeId()}); err != nil {
		t.Logf("X's DeleteVolume while its snapshot copies: %v", err)
	}
	if _, err := createIn(ctx, d, src, tmpl, "pvc-y", "ns-y", "db"); err != nil {
		t.Logf("Y's claim db: %v", err)
	} else if err := ms.WriteFileDirect("db/z.txt", []byte("Y's secret!!")); err != nil {
		t.Fatal(err)
	}
	close(release)
	snapID := <-first
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, err := d.GetSnapshot(ctx, &csi.GetSnapshotRequest{SnapshotId: snapID})
		if err == nil && r.GetSnapshot().GetReadyToUse() {
			break
		}
		if err != nil || time.Now().After(end) {
			t.Logf("snapshot not ready: %v (nothing leaked)", err)
			return
		}
	}
	_, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name:       "pvc-x-restore",
		Parameters: map[string]string{"source": src, "subDir": tmpl, "csi.storage.k8s.io/pvc/name": "restored", "csi.storage.k8s.io/pvc/namespace": "ns-x"},
		VolumeCapabilities: []*csi.VolumeCapability{{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
		}},
		VolumeContentSource: &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{
			Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: snapID}}},
	})
	if err != nil {
		t.Fatalf("X's restore: %v", err)
	}
	got, err := ms.Client().ReadFile(ctx, "restored/z.txt")
	if err != nil {
		t.Fatalf("restored/z.txt: %v", err)
	}
	if strings.HasPrefix(string(got), "Y's") {
		t.Errorf("X's snapshot, restored by X, holds tenant Y's file: %q", got)
	}
}

// The same through a VolumeGroupSnapshot, whose member VolumeSnapshots
// name no PVC: Kubernetes keeps no pvc-as-source-protection finalizer on
// the members while their copies run, so X may delete its claim at once.
func TestAGroupSnapshotCopyNeverReadsAVolumeMadeAtItsMembersPathSince(t *testing.T) {
	ctx := context.Background()
	ms, d, x, reached, release := gatedVolumeX(t)
	const src, tmpl = "nfs://127.0.0.1/export/base", "${pvc.metadata.name}"
	first := make(chan *csi.VolumeGroupSnapshot, 1)
	go func() {
		r, err := d.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "group-x", SourceVolumeIds: []string{x.GetVolume().GetVolumeId()}})
		if err != nil {
			t.Logf("CreateVolumeGroupSnapshot: %v", err)
		}
		first <- r.GetGroupSnapshot()
	}()
	<-reached
	if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: x.GetVolume().GetVolumeId()}); err != nil {
		t.Fatalf("X's DeleteVolume: %v", err)
	}
	if _, err := createIn(ctx, d, src, tmpl, "pvc-y", "ns-y", "db"); err != nil {
		t.Fatalf("Y's claim db: %v", err)
	}
	if err := ms.WriteFileDirect("db/z.txt", []byte("Y's secret!!")); err != nil {
		t.Fatal(err)
	}
	close(release)
	g := <-first
	if len(g.GetSnapshots()) == 0 {
		return // refused: nothing of Y's committed
	}
	snapID := g.GetSnapshots()[0].GetSnapshotId()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, err := d.GetSnapshot(ctx, &csi.GetSnapshotRequest{SnapshotId: snapID})
		if err == nil && r.GetSnapshot().GetReadyToUse() {
			break
		}
		if err != nil || time.Now().After(end) {
			t.Logf("member snapshot not ready: %v (nothing leaked)", err)
			return
		}
	}
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/snapshots/") && strings.Contains(e.Data, "Y's secret") {
			t.Errorf("X's group snapshot holds tenant Y's file at %s", e.Path)
		}
		if strings.HasSuffix(e.Path, ".pack") && strings.Contains(e.Data, "Y's secret") {
			t.Errorf("X's group snapshot's pack holds tenant Y's file: %s", e.Path)
		}
	}
}

// gatedVolumeX is a controller whose sessions stop a copy's first open of
// db/z.txt until release is closed (reached says it got there), with
// tenant X's volume db (class nfs://127.0.0.1/export/base, subDir the
// claim's name) holding z.txt.
func gatedVolumeX(t *testing.T) (*memshare.Share, *Driver, *csi.CreateVolumeResponse, chan struct{}, chan struct{}) {
	t.Helper()
	ms := memshare.New()
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	gate := func(p string) {
		if p == "db/z.txt" {
			once.Do(func() { close(reached); <-release })
		}
	}
	pool := share.NewPool()
	pool.Dial = func(context.Context, source.Source, share.Credentials) (share.Client, error) {
		return gatedOpen{subTree{subRoot{c: ms.Client(), dir: ""}}, gate}, nil
	}
	t.Cleanup(pool.Close)
	d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	x, err := createIn(context.Background(), d, "nfs://127.0.0.1/export/base", "${pvc.metadata.name}", "pvc-x", "ns-x", "db")
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("db/z.txt", []byte("X's own file")); err != nil {
		t.Fatal(err)
	}
	return ms, d, x, reached, release
}
