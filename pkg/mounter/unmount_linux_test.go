package mounter

import (
	"context"
	"os"
	"path/filepath"
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

// IsMountPoint reads the table only, as the real one does for a path it
// cannot resolve.
func (l leakyUnmounter) IsMountPoint(p string) (bool, error) {
	for _, mp := range l.MountPoints {
		if mp.Path == p {
			return true, nil
		}
	}
	return false, nil
}

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
