package driver

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// subRoot is a session rooted at the directory dir of the share below: what
// the NFSv3 client dials for nfs://h/export/b when the server withholds its
// export list (the session is rooted at the source's own path), or when
// /export/b is a nested export (exportOf, findExport).
type subRoot struct {
	c   share.Client
	dir string
}

func (f subRoot) p(p string) string { return path.Join(f.dir, p) }
func (f subRoot) Stat(ctx context.Context, p string) (share.FileInfo, error) {
	return f.c.Stat(ctx, f.p(p))
}
func (f subRoot) Mkdir(ctx context.Context, p string, perm fs.FileMode) error {
	return f.c.Mkdir(ctx, f.p(p), perm)
}
func (f subRoot) RemoveAll(ctx context.Context, p string, o share.RemoveOptions) error {
	o.Foreign = f.p(o.Foreign)
	var prot []string
	for _, x := range o.Protect {
		prot = append(prot, f.p(x))
	}
	o.Protect = prot
	return f.c.RemoveAll(ctx, f.p(p), o)
}
func (f subRoot) Rename(ctx context.Context, a, b string) error {
	return f.c.Rename(ctx, f.p(a), f.p(b))
}
func (f subRoot) Replace(ctx context.Context, a, b string) error {
	return f.c.Replace(ctx, f.p(a), f.p(b))
}
func (f subRoot) List(ctx context.Context, p string, max int) ([]string, error) {
	return f.c.List(ctx, f.p(p), max)
}
func (f subRoot) WriteFile(ctx context.Context, p string, d []byte) error {
	return f.c.WriteFile(ctx, f.p(p), d)
}
func (f subRoot) ReadFile(ctx context.Context, p string) ([]byte, error) {
	return f.c.ReadFile(ctx, f.p(p))
}
func (f subRoot) Remove(ctx context.Context, p string) error { return f.c.Remove(ctx, f.p(p)) }
func (f subRoot) Capacity(ctx context.Context) (share.Capacity, error) {
	return f.c.Capacity(ctx)
}
func (f subRoot) Prefix() string { return "" }
func (f subRoot) Close() error   { return nil }
func (f subRoot) CreateFile(ctx context.Context, p string, d []byte) error {
	return f.c.(share.Creator).CreateFile(ctx, f.p(p), d)
}
func (f subRoot) RemoveDir(ctx context.Context, p string) error {
	return f.c.(share.Rmdirer).RemoveDir(ctx, f.p(p))
}

// createIn is a CreateVolume of a claim pvc in namespace ns through a class
// on src with the subDir template tmpl, whose volumes are deleted.
func createIn(ctx context.Context, d *Driver, src, tmpl, name, ns, pvc string) (*csi.CreateVolumeResponse, error) {
	return createWith(ctx, d, src, tmpl, "delete", name, ns, pvc)
}

// createWith is createIn through a class with onDelete.
func createWith(ctx context.Context, d *Driver, src, tmpl, onDelete, name, ns, pvc string) (*csi.CreateVolumeResponse, error) {
	return d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: name,
		Parameters: map[string]string{
			"source": src, "subDir": tmpl, "onDelete": onDelete,
			"csi.storage.k8s.io/pvc/name": pvc, "csi.storage.k8s.io/pvc/namespace": ns,
		},
		VolumeCapabilities: []*csi.VolumeCapability{{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
		}},
	})
}

const (
	outer = "nfs://127.0.0.1/export"   // class A, rooted at /export
	inner = "nfs://127.0.0.1/export/b" // class B, rooted at /export/b
)

// twoRootsEmpty is a controller of two classes on one share: A rooted at
// the share's root (outer), B at its directory b (inner), each keeping its
// own records; nothing is made yet.
func twoRootsEmpty(t *testing.T) (*memshare.Share, *Driver) {
	ms := memshare.New()
	pool := share.NewPool()
	pool.Dial = func(_ context.Context, src source.Source, _ share.Credentials) (share.Client, error) {
		if src.Export == "/export/b" {
			return subRoot{c: ms.Client(), dir: "b"}, nil
		}
		return ms.Client(), nil
	}
	t.Cleanup(pool.Close)
	d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	return ms, d
}

// twoRoots is twoRootsEmpty with class B's volume db, data in it. warm:
// class A made and deleted b/warm before that.
func twoRoots(t *testing.T, warm bool) (*memshare.Share, *Driver) {
	ms, d := twoRootsEmpty(t)
	if err := ms.Client().Mkdir(context.Background(), "b", 0o755); err != nil {
		t.Fatal(err)
	}
	if warm {
		res, err := createIn(context.Background(), d, outer, "${pvc.metadata.namespace}/${pvc.metadata.name}", "pvc-warm", "b", "warm")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: res.GetVolume().GetVolumeId()}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := createIn(context.Background(), d, inner, "${pvc.metadata.name}", "pvc-victim", "ns", "db"); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("b/db/secret.txt", []byte("the victim's")); err != nil {
		t.Fatal(err)
	}
	return ms, d
}

// Two classes whose sessions have different roots, one inside the other:
// nested SMB shares (\\fs\data and \\fs\projects, a folder of data), nested
// NFS exports, a directory exported over NFS and shared over SMB at another
// level, or an NFS server that withholds its export list (each session is
// rooted at its class's own path). Each root keeps its own records, which
// the other never reads: class A must never make or adopt a directory at or
// below class B's root, where B's claims would adopt A's volumes and A's
// DeleteVolume would take B's.
func TestNoClaimReachesIntoAnotherClasssSessionRoot(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		what, tmpl, ns, pvc string
		warm                bool
	}{
		// Adopted, class B's root would go, with every volume of B, at
		// this claim's DeleteVolume.
		{"a claim named after class B's root", "${pvc.metadata.name}", "ns", "b", false},
		// Two tenants on one directory.
		{"a claim at class B's live volume", "${pvc.metadata.namespace}/${pvc.metadata.name}", "b", "db", false},
		// A new directory among class B's volumes, which B's claims of its
		// name would adopt.
		{"a new volume in class B's root", "${pvc.metadata.namespace}/${pvc.metadata.name}", "b", "new", false},
		// The same where class A made and deleted a volume there before
		// class B's first: its holds directory for b is there, and the
		// create takes the batches (pkg/state/batched.go).
		{"a new volume in class B's root, on the batched path", "${pvc.metadata.namespace}/${pvc.metadata.name}", "b", "new", true},
	} {
		t.Run(tc.what, func(t *testing.T) {
			ms, d := twoRoots(t, tc.warm)
			before := ms.Dump()
			res, err := createIn(ctx, d, outer, tc.tmpl, "pvc-other", tc.ns, tc.pvc)
			if status.Code(err) != codes.AlreadyExists {
				t.Errorf("class A's claim got %q (%v), want AlreadyExists", res.GetVolume().GetVolumeContext()["subDir"], err)
			}
			if err == nil {
				if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: res.GetVolume().GetVolumeId()}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := ms.Client().ReadFile(ctx, "b/db/secret.txt"); err != nil {
				t.Errorf("class B's volume lost its data: %v", err)
			}
			after := ms.Dump()
			for _, e := range after {
				if strings.HasPrefix(e.Path, "b/") && !slices.ContainsFunc(before, func(b memshare.Entry) bool { return b.Path == e.Path }) {
					t.Errorf("class A's call left %s in class B's root", e.Path)
				}
			}
		})
	}
}

// A class base that volumes of an earlier version made before records moved
// to the share's root holds BASE/.fileshare-csi/<escaped>.json (v1 records):
// that is no other root's records, and its claims go on.
func TestAV1BaseIsNotAnotherClasssSessionRoot(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	d := memshareDriver(t, ms)
	if err := ms.WriteFileDirect("team/.fileshare-csi/pvc-old.json", []byte(`{"name":"pvc-old"}`)); err != nil {
		t.Fatal(err)
	}
	for _, pvc := range []string{"new", "again"} {
		if _, err := createIn(ctx, d, "nfs://127.0.0.1/export/base", "team/${pvc.metadata.name}", "pvc-"+pvc, "ns", pvc); err != nil {
			t.Errorf("a claim in a v1 base: %v", err)
		}
	}
}

// Class A's volume b was made before class B was rooted in it (or adopted
// by a version before foreignStore): B keeps its records and volumes in
// it. A's DeleteVolume, deleted or archived, would take every volume of B
// into A's quarantine, or move B's root from under its share or export;
// it is refused, and B keeps everything.
func TestADeleteNeverTakesAnotherClasssSessionRoot(t *testing.T) {
	for _, mode := range []string{"delete", "archive"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			ms, d := twoRootsEmpty(t)
			a, err := createWith(ctx, d, outer, "${pvc.metadata.name}", mode, "pvc-outer", "ns", "b")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := createIn(ctx, d, inner, "${pvc.metadata.name}", "pvc-victim", "ns", "db"); err != nil {
				t.Fatal(err)
			}
			if err := ms.WriteFileDirect("b/db/secret.txt", []byte("the victim's")); err != nil {
				t.Fatal(err)
			}
			_, err = d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: a.GetVolume().GetVolumeId()})
			if status.Code(err) != codes.FailedPrecondition {
				t.Errorf("class A's DeleteVolume: %v, want FailedPrecondition", err)
			}
			for _, p := range []string{"b/db/secret.txt", "b/.fileshare-csi/volumes"} {
				if _, err := ms.Client().Stat(ctx, p); err != nil {
					t.Errorf("class A's DeleteVolume took class B's %s: %v", p, err)
				}
			}
		})
	}
}

// Class A's create at b/new is cut after its MKDIR, and never retried;
// class B's root b gets its store since, and B's claim new adopts the empty
// directory, no one's to B. A's reclaimer, undoing its create, leaves it:
// it lies in another store's root now.
func TestTheReclaimerLeavesADirectoryInAnotherClasssSessionRoot(t *testing.T) {
	ctx := context.Background()
	ms := memshare.New()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	n := 0
	uid := func() (string, error) { n++; return fmt.Sprintf("beef%012x", n), nil }
	a := state.New(ms.Client()).WithClock(func() time.Time { return now }, uid)
	b := state.New(subRoot{c: ms.Client(), dir: "b"}).WithClock(func() time.Time { return now }, uid)
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if strings.HasPrefix(op.Path, ".fileshare-csi/volumes/") && (op.Name == "write" || op.Name == "create") {
			return fmt.Errorf("the controller died: %w", share.ErrUnavailable)
		}
		return nil
	})
	if _, err := a.Create(ctx, state.CreateRequest{Path: "b/new", Name: "pvc-a", Perm: 0o777}); err == nil {
		t.Fatal("the create was not cut")
	}
	ms.SetHook(nil)
	if _, err := b.Create(ctx, state.CreateRequest{Path: "new", Name: "pvc-b", Perm: 0o777}); err != nil {
		t.Fatal(err)
	}
	var r state.Reclaimer
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	for range 2 {
		now = now.Add(state.IntentTTL + time.Minute)
		if _, err := r.Pass(ctx, a, "a", lock); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ms.Client().Stat(ctx, "b/new"); err != nil {
		t.Errorf("class A's reclaimer removed class B's volume: %v", err)
	}
}
