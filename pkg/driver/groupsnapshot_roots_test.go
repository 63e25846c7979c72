package driver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Two classes on one path, nfs://h/export/b pinned to NFSv4.1 and to
// NFSv3, as lockName says a class pair may be: /export/b is a nested
// export on the file system of /export, so the v3 session (export list)
// is rooted at b and the v4.1 one (fsid) at /export with prefix b. The
// locks and members() take them for one share. A group snapshot of a
// volume of each keeps its record, and the first member's snapshot, on
// /export, and the second's on b; DeleteVolumeGroupSnapshot reads the
// members on /export only, takes the second for "gone", answers success,
// and leaves its full copy of the tenant's data for good.
func TestAGroupSnapshotDeleteLeavesNoMemberCopyOnAnotherRoot(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	if err := ms.Client().Mkdir(ctx, "b", 0o755); err != nil {
		t.Fatal(err)
	}
	pool := share.NewPool()
	pool.Dial = func(_ context.Context, src source.Source, _ share.Credentials) (share.Client, error) {
		if src.Version == source.NFSv41 {
			return prefixed{ms.Client().(fullClient), "b"}, nil
		}
		return subTree{subRoot{c: ms.Client(), dir: "b"}}, nil
	}
	t.Cleanup(pool.Close)
	d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	const tmpl = "${pvc.metadata.name}"
	v4, err := createIn(ctx, d, "nfs://127.0.0.1/export/b?vers=4.1", tmpl, "pvc-1", "t", "one")
	if err != nil {
		t.Fatal(err)
	}
	v3, err := createIn(ctx, d, "nfs://127.0.0.1/export/b?vers=3", tmpl, "pvc-2", "t", "two")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"b/one/data", "b/two/data"} {
		if err := ms.WriteFileDirect(f, []byte("the tenant's")); err != nil {
			t.Fatal(err)
		}
	}
	req := &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1",
		SourceVolumeIds: []string{v4.GetVolume().GetVolumeId(), v3.GetVolume().GetVolumeId()}}
	var g *csi.VolumeGroupSnapshot
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, err := d.CreateVolumeGroupSnapshot(ctx, req)
		if status.Code(err) == codes.FailedPrecondition {
			return // refused before anything was made: the fix
		}
		if err != nil {
			t.Fatalf("CreateVolumeGroupSnapshot: %v", err)
		}
		if g = r.GetGroupSnapshot(); g.GetReadyToUse() || time.Now().After(end) {
			break
		}
	}
	var ids []string
	for _, s := range g.GetSnapshots() {
		ids = append(ids, s.GetSnapshotId())
	}
	got, err := d.GetVolumeGroupSnapshot(ctx, &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: g.GetGroupSnapshotId(), SnapshotIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.GetGroupSnapshot().GetSnapshots()); n != 2 {
		t.Errorf("GetVolumeGroupSnapshot reports %d of the group's 2 snapshots", n)
	}
	if _, err := d.DeleteVolumeGroupSnapshot(ctx, &csi.DeleteVolumeGroupSnapshotRequest{GroupSnapshotId: g.GetGroupSnapshotId(), SnapshotIds: ids}); err != nil {
		t.Fatalf("DeleteVolumeGroupSnapshot: %v", err)
	}
	for _, e := range ms.Dump() {
		if strings.Contains(e.Path, ".fileshare-csi/snapshots/") && !e.Dir {
			t.Errorf("DeleteVolumeGroupSnapshot answered success and left %s", e.Path)
		}
	}
}
