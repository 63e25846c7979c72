package driver

import (
	"context"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// subTree is subRoot with the TreeClient half: a session rooted at dir.
type subTree struct{ subRoot }

func (f subTree) tc() share.TreeClient { return f.c.(share.TreeClient) }
func (f subTree) Lstat(ctx context.Context, p string) (share.Attr, error) {
	return f.tc().Lstat(ctx, f.p(p))
}
func (f subTree) ReadDir(ctx context.Context, p string, fn func([]share.DirEntry) error) error {
	return f.tc().ReadDir(ctx, f.p(p), fn)
}
func (f subTree) Readlink(ctx context.Context, p string) (string, error) {
	return f.tc().Readlink(ctx, f.p(p))
}
func (f subTree) Symlink(ctx context.Context, t, p string) error {
	return f.tc().Symlink(ctx, t, f.p(p))
}
func (f subTree) Open(ctx context.Context, p string) (share.FileReader, error) {
	return f.tc().Open(ctx, f.p(p))
}
func (f subTree) Create(ctx context.Context, p string, perm fs.FileMode) (share.FileWriter, error) {
	return f.tc().Create(ctx, f.p(p), perm)
}
func (f subTree) SetAttr(ctx context.Context, p string, a share.Attr, m share.AttrMask) error {
	return f.tc().SetAttr(ctx, f.p(p), a, m)
}

// prefixed is a session rooted at the share's root whose source lies at
// prefix below it: what nfs3 dials for nfs://h/export/b once /export/b is
// no longer an export of its own (exportOf picks /export).
type fullClient interface {
	share.TreeClient
	share.Creator
	share.Rmdirer
}
type prefixed struct {
	fullClient
	prefix string
}

func (p prefixed) Prefix() string { return p.prefix }

// Two sessions of one source can be rooted at different directories (the
// export list changed between their dials: an export added or removed, or
// a server that withholds its list on some dials). A restore computes its
// destination path on one session and copies through others: the copy
// must never write where that path leads on another root.
func TestACopyNeverWritesThroughASessionRootedElsewhere(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	if err := ms.Client().Mkdir(ctx, "b", 0o755); err != nil {
		t.Fatal(err)
	}
	var unexported atomic.Bool // /export/b stopped being an export of its own
	pool := share.NewPool()
	// A session per call: each lease of the copy dials (deterministic;
	// with idle sessions kept, only the copy's extra workers dial anew).
	pool.MaxOpenPerKey = 0
	pool.Dial = func(_ context.Context, src source.Source, _ share.Credentials) (share.Client, error) {
		if src.Export == "/export/b" {
			if unexported.Load() {
				return prefixed{ms.Client().(fullClient), "b"}, nil
			}
			return subTree{subRoot{c: ms.Client(), dir: "b"}}, nil
		}
		return ms.Client(), nil
	}
	t.Cleanup(pool.Close)
	d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	const tmpl = "${pvc.metadata.name}"
	// The victim: class A's volume db, another tenant's.
	if _, err := createIn(ctx, d, outer, tmpl, "pvc-victim", "victim", "db"); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("db/f1/important", []byte("the victim's")); err != nil {
		t.Fatal(err)
	}
	// Tenant T's own volume in class A, and its snapshot.
	src, err := createIn(ctx, d, outer, tmpl, "pvc-tsrc", "t", "tsrc")
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("tsrc/f1", []byte("T's file")); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("tsrc/leak.txt", []byte("T's data")); err != nil {
		t.Fatal(err)
	}
	var snapID string
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-t", SourceVolumeId: src.GetVolume().GetVolumeId()})
		if err == nil && r.GetSnapshot().GetReadyToUse() {
			snapID = r.GetSnapshot().GetSnapshotId()
			break
		}
		if time.Now().After(end) {
			t.Fatalf("snapshot not ready: %v", err)
		}
	}
	before := ms.Dump()
	// The operator runs exportfs -ra without /export/b just after the
	// restore's copy first beat: sessions dialed from then on are rooted
	// at /export.
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.After && op.Name == "write" && strings.HasPrefix(op.Path, "b/.fileshare-csi/busy/") {
			unexported.Store(true)
		}
		return nil
	})
	// T restores its own snapshot into class B, claim db.
	_, rerr := d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-t-restore",
		Parameters: map[string]string{
			"source": inner, "subDir": tmpl, "onDelete": "delete",
			"csi.storage.k8s.io/pvc/name": "db", "csi.storage.k8s.io/pvc/namespace": "t",
		},
		VolumeCapabilities: []*csi.VolumeCapability{{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
		}},
		VolumeContentSource: &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{
			Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: snapID}}},
	})
	ms.SetHook(nil)
	t.Logf("restore: %v", rerr)
	after := ms.Dump()
	for _, e := range after {
		if !strings.HasPrefix(e.Path, "db/") && e.Path != "db" {
			continue
		}
		found := false
		for _, b := range before {
			if b.Path == e.Path && b.Data == e.Data {
				found = true
			}
		}
		if !found {
			t.Errorf("the restore into class B wrote %s (%q) into class A's volume db, another tenant's", e.Path, e.Data)
		}
	}
	for _, b := range before {
		if strings.HasPrefix(b.Path, "db/") {
			ok := false
			for _, e := range after {
				if e.Path == b.Path {
					ok = true
				}
			}
			if !ok {
				t.Errorf("the restore into class B removed %s from class A's volume db, another tenant's", b.Path)
			}
		}
	}
}
