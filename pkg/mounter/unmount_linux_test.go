package mounter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"k8s.io/mount-utils"
)

// leakyUnmounter is mount-utils' Linux mounter as it behaves when umount(8)
// answers "not mounted" for a mount it fails to find: the unmount reports
// success and the mount stays in the table.
type leakyUnmounter struct {
	*mount.FakeMounter
}

func (l leakyUnmounter) UnmountWithForce(string, time.Duration) error { return nil }
func (l leakyUnmounter) CanSafelySkipMountPointCheck() bool           { return true }

func TestUnstageThatLeavesTheMountFails(t *testing.T) {
	staging := filepath.Join(t.TempDir(), "globalmount")
	if err := os.Mkdir(staging, 0o750); err != nil {
		t.Fatal(err)
	}
	fake := mount.NewFakeMounter([]mount.MountPoint{{Device: "//fs/share/v", Path: staging, Type: "cifs"}})
	l := NewLinuxForTest(leakyUnmounter{fake}, nil, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.Unstage(ctx, staging); err == nil {
		t.Fatal("an unstage that left the mount in place reported success: the kubelet would forget a mounted volume")
	}
	// Once the mount is really gone, the retry succeeds.
	fake.MountPoints = nil
	if err := l.Unstage(ctx, staging); err != nil {
		t.Fatalf("unstage once the mount is gone: %v", err)
	}
}

// A mount whose root directory was removed on the server (the volume
// deleted while the node still had it mounted) answers "no such file" for
// its own mount point on CIFS. Here the path is missing on disk while the
// table shows a mount at it, as the plugin sees such a mount: unpublish and
// unstage unmount it, and health calls it broken rather than "not
// mounted", so a new stage never stacks a mount on top of it.
func TestAMountWhoseRootWentOnTheServerIsUnmounted(t *testing.T) {
	dir := t.TempDir()
	staging := filepath.Join(dir, "globalmount")
	target := filepath.Join(dir, "pod", "mount")
	fake := mount.NewFakeMounter([]mount.MountPoint{
		{Device: "//fs/share/v", Path: staging, Type: "cifs"},
		{Device: staging, Path: target, Type: "cifs", Opts: []string{"bind"}},
	})
	var unmounted []string
	l := NewLinuxForTest(fake, nil, t.TempDir())
	l.SetUnmountForTest(func(path string, flags int) error {
		unmounted = append(unmounted, path)
		return fake.Unmount(path)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.Check(ctx, staging); !errors.Is(err, ErrBroken) {
		t.Fatalf("Check of a mount whose root answers no such file: %v, want ErrBroken", err)
	}
	if err := l.Unpublish(ctx, target); err != nil {
		t.Fatalf("Unpublish: %v", err)
	}
	if err := l.Unstage(ctx, staging); err != nil {
		t.Fatalf("Unstage: %v", err)
	}
	if mps, _ := fake.List(); len(mps) != 0 {
		t.Fatalf("left in the table after unpublish and unstage: %v", mps)
	}
	if want := []string{target, staging}; !slices.Equal(unmounted, want) {
		t.Fatalf("unmounted %q, want %q", unmounted, want)
	}
	// Nothing in the table and nothing on disk: there is nothing to do.
	if err := l.Unstage(ctx, staging); err != nil {
		t.Fatalf("Unstage again: %v", err)
	}
	if err := l.Check(ctx, staging); !errors.Is(err, ErrNotMounted) {
		t.Fatalf("Check once it is gone: %v, want ErrNotMounted", err)
	}
}

// forceRecorder is mount-utils' Linux mounter as far as UnmountWithForce
// goes: mount-utils runs umount(8), and when that has not returned within
// the timeout, umount -f (MNT_FORCE). It records whom the caller let it
// force.
type forceRecorder struct {
	*mount.FakeMounter
	forced []string
}

func (f *forceRecorder) UnmountWithForce(target string, _ time.Duration) error {
	f.forced = append(f.forced, target)
	return f.FakeMounter.Unmount(target)
}

// A pod's target is a bind of the staging mount: MNT_FORCE on it acts on
// the file system every bind shares (for NFS, every volume of the export
// on the node), failing the I/O of every other pod. Unpublish never lets
// mount-utils escalate to umount -f, whether the target answers or is
// broken (ESTALE); unstage of the staging mount still may. (Every target
// used to go through UnmountWithForce.)
func TestUnpublishNeverForcesAPodsBind(t *testing.T) {
	for _, broken := range []bool{false, true} {
		dir := t.TempDir()
		staging, target := filepath.Join(dir, "staging"), filepath.Join(dir, "target")
		for _, p := range []string{staging, target} {
			if err := os.Mkdir(p, 0o750); err != nil {
				t.Fatal(err)
			}
		}
		fake := mount.NewFakeMounter([]mount.MountPoint{
			{Device: "10.0.0.5:/export", Path: staging, Type: "nfs"},
			{Device: staging, Path: target, Type: "nfs", Opts: []string{"bind"}},
		})
		if broken {
			fake.MountCheckErrors = map[string]error{
				target:  &os.PathError{Op: "stat", Path: target, Err: syscall.ESTALE},
				staging: &os.PathError{Op: "stat", Path: staging, Err: syscall.ESTALE},
			}
		}
		rec := &forceRecorder{FakeMounter: fake}
		m := NewLinuxForTest(rec, nil, filepath.Join(dir, "creds"))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := m.Unpublish(ctx, target); err != nil {
			t.Fatalf("broken=%v: Unpublish: %v", broken, err)
		}
		if len(rec.forced) != 0 {
			t.Errorf("broken=%v: Unpublish of a pod's bind let mount-utils force %v (umount -f: MNT_FORCE)", broken, rec.forced)
		}
		if err := m.Unstage(ctx, staging); err != nil {
			t.Fatalf("broken=%v: Unstage: %v", broken, err)
		}
		cancel()
		if !slices.Equal(rec.forced, []string{staging}) {
			t.Errorf("broken=%v: forcible unmounts %v, want the staging mount's only", broken, rec.forced)
		}
		if mps, _ := fake.List(); len(mps) != 0 {
			t.Errorf("broken=%v: left mounted: %v", broken, mps)
		}
	}
}
