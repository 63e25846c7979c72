package mounter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// stallingMounter is mount-utils' view of a mount whose server vanishes
// right after the unmount's probe answered: the first look of the unmount
// itself at path (IsMountPoint, mount-utils' stat) blocks in the kernel
// until release is closed, the server's return.
type stallingMounter struct {
	*mount.FakeMounter
	path    string
	once    sync.Once
	stalled chan struct{}
	release chan struct{}
}

func (s *stallingMounter) IsMountPoint(p string) (bool, error) {
	if p == s.path {
		first := false
		s.once.Do(func() { first = true })
		if first {
			close(s.stalled)
			<-s.release
		}
	}
	return s.FakeMounter.IsMountPoint(p)
}

// An unstage whose probe answered unmounts apart from the call, so the call
// still returns at its deadline should the server vanish now; that late
// unmount then blocks in the kernel. The retry detaches the hung mount, and
// the volume is staged again at the same path once the server is back.
// The late unmount, waking then, leaves the new mount and its directory
// alone. (It unmounted the path and removed the directory: the new staging
// mount, under the pods that had just started on it.)
func TestALateUnmountLeavesANewerMountAtThePath(t *testing.T) {
	dir := t.TempDir()
	staging := filepath.Join(dir, "globalmount")
	if err := os.Mkdir(staging, 0o750); err != nil {
		t.Fatal(err)
	}
	fake := mount.NewFakeMounter([]mount.MountPoint{{Device: "nas:/exports", Path: staging, Type: "nfs"}})
	s := &stallingMounter{FakeMounter: fake, path: staging, stalled: make(chan struct{}), release: make(chan struct{})}
	released := false
	defer func() {
		if !released {
			close(s.release)
		}
	}()
	run := func(_ context.Context, fstype, device, target string, opts []string) error {
		return fake.Mount(device, target, fstype, opts)
	}
	l := NewLinuxForTest(s, run, filepath.Join(dir, "creds"))

	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := l.Unstage(ctx, staging); !errors.Is(err, ErrNotResponding) {
		t.Fatalf("unstage whose unmount blocks: %v, want ErrNotResponding at the deadline", err)
	}
	<-s.stalled

	// The retry finds the mount hung and detaches it (umount2 MNT_DETACH:
	// the late unmount stays blocked on the old mount).
	if err := fake.Unmount(staging); err != nil {
		t.Fatal(err)
	}
	// A new pod: the volume is staged again at the same path.
	src, err := source.Parse("nfs://nas/exports")
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if err := l.Stage(ctx2, StageRequest{Source: src, StagingPath: staging}); err != nil {
		t.Fatal(err)
	}
	if mounted, _ := l.inTable(staging); !mounted {
		t.Fatal("the new stage mounted nothing")
	}

	// The server is back: the late unmount wakes.
	close(s.release)
	released = true
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if mounted, _ := l.inTable(staging); !mounted {
			t.Fatal("the late unmount of the old mount took down the new staging mount")
		}
		if _, err := os.Stat(staging); err != nil {
			t.Fatalf("the late unmount removed the new staging mount's directory: %v", err)
		}
	}
	// The new mount is still the volume's: a later unstage takes it down.
	if err := l.Unstage(ctx2, staging); err != nil {
		t.Fatalf("unstage of the new mount: %v", err)
	}
	if mounted, _ := l.inTable(staging); mounted {
		t.Fatal("the new mount is still there after its unstage")
	}
}
