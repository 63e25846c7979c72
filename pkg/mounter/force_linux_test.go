package mounter

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// hangingMounter is mount-utils' view of a node where one path's probe
// blocks in the kernel (a hard NFS mount whose server does not answer).
type hangingMounter struct {
	*mount.FakeMounter
	mu      sync.Mutex
	hang    string
	release chan struct{}
}

func (h *hangingMounter) hung() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hang
}

func (h *hangingMounter) setHung(p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hang = p
}

func (h *hangingMounter) IsLikelyNotMountPoint(p string) (bool, error) {
	if p == h.hung() {
		<-h.release
	}
	return h.FakeMounter.IsLikelyNotMountPoint(p)
}

// Two claims of one NFS class on a node: each staging mount is a bind of a
// mount of the same export (stageBeneath), i.e. one NFS superblock, and
// MNT_FORCE calls nfs_umount_begin on that superblock, which kills the
// in-flight RPCs of every mount of it: the other claim's pods get EIO.
// MNT_FORCE was already kept off pods' binds for that reason; a subDir
// volume's staging mount is such a bind too. The unstage of a hung staging
// mount forces it only when no other mount has its file system (the same
// major:minor in the mount table), and detaches it otherwise; the last
// volume of the export is forced as before.
func TestUnstageNeverForcesAFileSystemAnotherVolumeUses(t *testing.T) {
	dir := t.TempDir()
	fake := mount.NewFakeMounter(nil)
	h := &hangingMounter{FakeMounter: fake, release: make(chan struct{})}
	defer close(h.release)
	run := func(_ context.Context, fstype, device, target string, opts []string) error {
		return fake.Mount(device, target, fstype, opts)
	}
	l := NewLinuxForTest(h, run, filepath.Join(dir, "creds"))
	var mu sync.Mutex
	var recorded []int
	l.SetUnmountForTest(func(path string, f int) error {
		if path == h.hung() {
			mu.Lock()
			recorded = append(recorded, f)
			mu.Unlock()
		}
		return fake.Unmount(path)
	})
	taken := func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(recorded)
	}
	src, err := source.Parse("nfs://nas/exports")
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a", "globalmount"), filepath.Join(dir, "b", "globalmount")
	for sub, staging := range map[string]string{"pvc-a": a, "pvc-b": b} {
		if err := l.Stage(context.Background(), StageRequest{Source: src, SubDir: sub, StagingPath: staging}); err != nil {
			t.Fatal(err)
		}
	}
	h.setHung(a)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = l.Unstage(ctx, a)
	flags := taken()
	for _, f := range flags {
		if f&unix.MNT_FORCE != 0 {
			t.Fatalf("unstage of pvc-a called umount2(%s, MNT_FORCE) while pvc-b's staging mount shares its NFS superblock (umount2 flags %v)", a, flags)
		}
	}
	if !slices.Contains(flags, unix.MNT_DETACH) {
		t.Fatalf("unstage of the hung pvc-a used umount2 flags %v, want MNT_DETACH", flags)
	}
	// pvc-b is now the export's only mount on the node: its hung mount
	// is forced, which releases what is stuck in the kernel on it.
	h.setHung(b)
	ctx, cancel = context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = l.Unstage(ctx, b)
	flags = taken()[len(flags):]
	if len(flags) == 0 || flags[0] != unix.MNT_FORCE {
		t.Fatalf("unstage of the hung pvc-b, the export's last mount, used umount2 flags %v, want MNT_FORCE first", flags)
	}
}

// The mount table's answer: another entry with the top mount's major:minor
// (a bind, a pod's target, another staging mount of the superblock) shares
// it; one of another file system does not; a path with nothing mounted has
// nothing to force.
func TestAFileSystemIsSharedWhenAnotherMountHasItsDevice(t *testing.T) {
	infos := []mount.MountInfo{
		{MountPoint: "/", Major: 8, Minor: 1},
		{MountPoint: "/k/a/globalmount", Major: 0, Minor: 55},
		{MountPoint: "/k/b/globalmount", Major: 0, Minor: 55},
		{MountPoint: "/k/c/globalmount", Major: 0, Minor: 56},
		{MountPoint: `/k/d/globalmount\040(deleted)`, Major: 0, Minor: 57},
		{MountPoint: "/k/pods/d", Major: 0, Minor: 57},
	}
	for path, want := range map[string]bool{
		"/k/a/globalmount":  true,
		"/k/b/globalmount/": true,
		"/k/c/globalmount":  false,
		"/k/d/globalmount":  true,
		"/k/none":           false,
	} {
		if got := sharedIn(infos, path); got != want {
			t.Errorf("%s shares its file system: %v, want %v", path, got, want)
		}
	}
}
